"""`keep`: a saved design keeps every member of the stored definition that the form cannot
show, today's and any added to the schema later.

What the form shows is found, not listed: a member is shown when the form, given the stored
definition and left untouched, writes it again (`echo`). A member the echo lacks is one the
form has no input for, so the new definition takes it from the stored one as it was. A
member the form shows is the form's to keep or drop (an emptied logo text, a removed field).
"""

from __future__ import annotations

from typing import Any

# Array items are matched by their `key` when they have one (fields keep their members when
# rows move), else by position (locations).
_MATCH_BY = "key"


def keep(new: Any, old: Any, echo: Any) -> Any:
    """`new` with each member of `old` that `echo` (the form's copy of `old`) lacks."""
    if isinstance(new, dict) and isinstance(old, dict):
        echoed = echo if isinstance(echo, dict) else {}
        out = {key: keep(value, old.get(key), echoed.get(key)) for key, value in new.items()}
        for key, value in old.items():
            if key not in out and key not in echoed:
                out[key] = value
        return out
    if isinstance(new, list) and isinstance(old, list):
        echoed_items = echo if isinstance(echo, list) else []
        return [keep(item, *_partners(item, index, old, echoed_items))
                for index, item in enumerate(new)]
    return new


def _partners(item: Any, index: int, old: list[Any], echo: list[Any]) -> tuple[Any, Any]:
    """The stored item that `item` (at `index` of the new array) edits, and its echo."""
    key = item.get(_MATCH_BY) if isinstance(item, dict) else None
    if key is not None:
        for position, candidate in enumerate(old):
            if isinstance(candidate, dict) and candidate.get(_MATCH_BY) == key:
                return candidate, echo[position] if position < len(echo) else None
        return None, None
    return (old[index] if index < len(old) else None,
            echo[index] if index < len(echo) else None)
