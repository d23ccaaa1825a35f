"""A pass's tags (issue 33): labels an operator filters and addresses holders by.

The rules ("Tags (issue 33)" in docs/decisions.md): at most `MAX_TAGS` tags of at most
`MAX_LENGTH` characters; each is stored in lower case (Unicode-aware, after NFC), so `VIP`
and `vip` are one tag and `?tag=VIP` finds both; a tag starts with a letter or digit and
holds only letters, digits, `-`, `_`, `.` and `:` (no spaces, commas or semicolons: the
CSV import splits a cell on those). A tag given twice (after lower-casing) is kept once, at
its first place; the limit counts the tags kept.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from webapp.domain.values import Problem

MAX_TAGS = 20
MAX_LENGTH = 40
_PUNCTUATION = frozenset("-_.:")


def _allowed(tag: str) -> bool:
    """Letters and digits (any script; combining marks after the first, as lower-casing
    `İ` makes), `-`, `_`, `.` and `:`; a letter or digit first."""
    return tag[0].isalnum() and all(
        ch.isalnum() or ch in _PUNCTUATION or unicodedata.category(ch).startswith("M")
        for ch in tag[1:])


def normal(tag: str) -> str:
    """A tag as it is stored and matched: NFC, lower case, no surrounding spaces."""
    return unicodedata.normalize("NFC", tag.strip()).lower()


def problem_of(tag: str, param: str) -> Problem | None:
    """What is wrong with one tag (already `normal`), if anything."""
    if not tag:
        return Problem("tag_empty", f"{param} is empty: a tag has 1 to {MAX_LENGTH} "
                                    "characters.", param)
    if len(tag) > MAX_LENGTH:
        return Problem("tag_too_long", f"{param} is longer than {MAX_LENGTH} characters.",
                       param)
    if not _allowed(tag):
        return Problem("tag_invalid", f"{param} may hold only letters, digits, '-', '_', "
                                      "'.' and ':', and starts with a letter or digit.", param)
    return None


def clean(given: Any) -> tuple[list[str], Problem | None]:
    """The tags to store for a list as sent (`tags` of a request), or its first problem."""
    if not isinstance(given, (list, tuple)):
        return [], Problem("parameter_invalid", "tags must be a list of strings.", "tags")
    kept: list[str] = []
    for index, tag in enumerate(given):
        param = f"tags.{index}"
        if not isinstance(tag, str):
            return [], Problem("parameter_invalid", f"{param} must be a string.", param)
        tag = normal(tag)
        if (found := problem_of(tag, param)) is not None:
            return [], found
        if tag not in kept:
            kept.append(tag)
    if len(kept) > MAX_TAGS:
        return [], Problem("too_many_tags", f"tags has {len(kept)} tags: a pass takes at most "
                                            f"{MAX_TAGS}.", "tags")
    return kept, None
