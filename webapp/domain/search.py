"""Text as pass search compares it: "muller", "MÜLLER" and "Müller" fold to the same.

Both sides are folded in Python, the stored `search_text` and the search term, so any
database's plain LIKE (and PostgreSQL's trigram index on the column) answers an accent- and
case-insensitive search without an extension such as `unaccent`.
"""

from __future__ import annotations

import re
import unicodedata

SEPARATOR = "\x1f"  # between the searchable parts, so a match never spans two of them

# The diacritic blocks: the marks NFKD splits off Latin, Greek and Cyrillic letters. Marks of
# other scripts (a Devanagari virama, the kana voicing marks) make another letter and stay.
_DIACRITICS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")

# Letters NFKD does not decompose, as people type them on a plain keyboard (after casefold,
# which already turns "ß" into "ss"). Typographic apostrophes (U+2019 and kin) become '.
_LETTERS = str.maketrans({
    "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "\u0131": "i",
    "ħ": "h", "ŧ": "t", "\u2019": "'", "\u2018": "'", "\u02bc": "'",
})


def fold(text: str) -> str:
    """`text` without case, diacritics or compatibility forms ("Łódź" -> "lodz")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = _DIACRITICS.sub("", decomposed).translate(_LETTERS)
    return unicodedata.normalize("NFC", plain)  # recompose what stayed (Hangul, kana)


def search_text(*parts: str | None) -> str:
    """The stored form of a pass's searchable parts (name, email, short ID)."""
    return fold(SEPARATOR.join(part or "" for part in parts))
