"""Text that can reach a wallet: Unicode scalar values without invisible control characters.

JSON can carry a lone UTF-16 surrogate (`"\\udfff"`), which no encoder can write: PostgreSQL
refuses it and UTF-8 pages, `.pkpass` files and Google objects fail on it. Control characters
other than tab and line breaks are shown by no wallet. Both are refused where text enters
(the API's bodies and queries, dashboard forms), naming the member that holds them.
"""

from __future__ import annotations

import re

# C0 controls but tab, LF and CR; DEL and the C1 controls; the surrogate range.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def problem(text: str) -> str | None:
    """What is wrong with `text` ("contains ..."), or None when every character may be kept."""
    found = _BAD.search(text)
    if found is None:
        return None
    code_point = ord(found.group())
    if 0xD800 <= code_point <= 0xDFFF:
        return (f"contains U+{code_point:04X}, half of a UTF-16 surrogate pair, which is not a "
                "Unicode character")
    return f"contains the control character U+{code_point:04X}, which wallets cannot show"


def printable(text: str) -> str:
    """`text` with each character that `problem` names replaced by U+FFFD, to show it safely."""
    return _BAD.sub("\ufffd", text)
