"""`settle`: a definition built from the form, in the stored definition's words wherever the
two say the same thing, so that saving an untouched form creates no new revision."""

from __future__ import annotations

from typing import Any

from webapp.domain import formats


def settle(new: Any, old: Any) -> Any:
    """`new`, but where it says what `old` says in other words, `old`'s words."""
    if isinstance(new, dict) and isinstance(old, dict):
        return _settle_object(new, old)
    if isinstance(new, list) and isinstance(old, list):
        return [settle(item, old[i]) if i < len(old) else item for i, item in enumerate(new)]
    if _same_number(new, old) or _same_moment(new, old):
        return old
    return new


def _settle_object(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """Each member settled; a default the form leaves out stays as `old` spelled it out."""
    out = {key: settle(value, old.get(key)) for key, value in new.items()}
    for key, value in old.items():
        if key not in out and _is_default(value):
            out[key] = value
    return out


def _is_default(value: Any) -> bool:
    return value in (False, "", "text") or value == [] or value == {}


def _same_number(new: Any, old: Any) -> bool:
    """Whether `new` is the number `old` as text (`"42"`) or as a float (`42.0`)."""
    if not isinstance(old, int | float) or isinstance(old, bool):
        return False
    if isinstance(new, str):
        return formats.is_numeric_text(new) and float(new) == old
    return isinstance(new, float) and isinstance(old, int) and new == old


def _same_moment(new: Any, old: Any) -> bool:
    """Whether two texts are the same date and time, in the same offset, written apart."""
    if not isinstance(new, str) or not isinstance(old, str) or new == old:
        return False
    a, b = formats.parse_datetime(new), formats.parse_datetime(old)
    return a is not None and b is not None and a == b and a.utcoffset() == b.utcoffset()
