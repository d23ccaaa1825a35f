"""`<lang>.lproj/pass.strings`: a pass's texts in other languages (Apple's localization).

Wallet replaces each localizable text of pass.json (organizationName, description, logoText,
a field's label, text value and changeMessage, the event's semantic name and venue) that is
a key of the `pass.strings` of the reader's language. The keys are the default language's
texts as pass.json carries them, so a device that reads none of the pass's languages shows
the default text as it is; the default language gets a file too (each text to itself), so
Wallet can pick it by name.

The pairs come from rendering pass.json once per language (from the translated definition)
and reading the two documents side by side: every text a wallet shows, including the ones
pass.json makes up (`<label>: %@`), is keyed as it is written. Files are UTF-16 with a
byte order mark, the encoding Apple documents for `.strings` files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

FILE = "pass.strings"
_TOP = ("organizationName", "description", "logoText")
_FIELD = ("label", "value", "changeMessage")
_SEMANTIC = ("eventName", "venueName")
_GROUPS = ("headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields")


def localization_files(default: Mapping[str, Any], translated: Mapping[str, Mapping[str, Any]],
                       default_language: str) -> dict[str, bytes]:
    """`<lang>.lproj/pass.strings` for each language of `translated` (language -> the
    pass.json rendered in it) that changes a text, and for the default language; {} when no
    language changes anything."""
    tables: dict[str, dict[str, str]] = {}
    for language, doc in translated.items():
        table: dict[str, str] = {}
        for original, text in zip(texts(default), texts(doc), strict=False):
            if original and original != text:
                table.setdefault(original, text)  # one wording, one translation
        if table:
            tables[language] = table
    if not tables:
        return {}
    keys = [key for table in tables.values() for key in table]
    tables[default_language] = {key: key for key in dict.fromkeys(keys)}
    return {f"{language}.lproj/{FILE}": encode(table) for language, table in tables.items()}


def texts(doc: Mapping[str, Any]) -> Iterator[str]:
    """The localizable texts of a pass.json, in a fixed order (a missing one is "")."""
    for member in _TOP:
        yield _string(doc.get(member))
    semantics: Mapping[str, Any] = _object(doc.get("semantics"))
    for member in _SEMANTIC:  # Apple lists these semantic tags as localizable strings
        yield _string(semantics.get(member))
    style: Mapping[str, Any] = next(
        (doc[k] for k in ("eventTicket", "generic", "coupon", "storeCard", "boardingPass")
         if isinstance(doc.get(k), dict)), {})
    for group in _GROUPS:
        for field in style.get(group) or []:
            for member in _FIELD:
                yield _string(field.get(member)) if isinstance(field, dict) else ""


def encode(table: Mapping[str, str]) -> bytes:
    """A `.strings` file: `"key" = "value";` lines, UTF-16 little-endian with its BOM."""
    lines = "".join(f'"{_escape(key)}" = "{_escape(value)}";\n' for key, value in table.items())
    return b"\xff\xfe" + lines.encode("utf-16-le")


def decode(data: bytes) -> dict[str, str]:
    """The pairs of a `.strings` file this module wrote (for tests and tools)."""
    text = data.decode("utf-16")
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.rstrip(";").partition('" = "')
        out[_unescape(key[1:])] = _unescape(value[:-1])
    return out


def _object(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _string(value: object) -> str:
    return value if isinstance(value, str) else ""


def _escape(text: str) -> str:
    return (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            .replace("\r", "\\r"))


def _unescape(text: str) -> str:
    out, chars = [], iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append({"n": "\n", "r": "\r"}.get(following, following))
        else:
            out.append(char)
    return "".join(out)
