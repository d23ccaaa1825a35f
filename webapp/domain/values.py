"""Per-pass field values: what a new pass must supply, what a patch may change, and the diff.

Values are JSON strings and numbers only (booleans are not numbers), strings at most 500
characters, and each matches its field's `format`. Problems are returned as `Problem`s for
the service to raise; nothing here knows about HTTP or the database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from webapp.domain import definition as rules
from webapp.domain import definition_read, formats

Value = str | int | float


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    param: str


def _param(key: str) -> str:
    return f"fieldValues.{key}"


def check_value(key: str, value: object, field: dict[str, Any]) -> Problem | None:
    """Whether one value suits its field: type, length and format."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return Problem("field_value_invalid", f"fieldValues.{key} must be a string or a number.",
                       _param(key))
    if isinstance(value, float) and not math.isfinite(value):
        return Problem("field_value_invalid", f"fieldValues.{key} must be a finite number.",
                       _param(key))
    if isinstance(value, str) and len(value) > rules.MAX_VALUE_LENGTH:
        return Problem("field_value_invalid",
                       f"fieldValues.{key} must be at most {rules.MAX_VALUE_LENGTH} characters.",
                       _param(key))
    fmt = field.get("format", "text")
    if fmt == "number" and isinstance(value, str) and not formats.is_numeric_text(value):
        return Problem("field_value_invalid", f"fieldValues.{key} must be a number.",
                       _param(key))
    if fmt == "date" and (not isinstance(value, str) or (
            formats.parse_date(value) is None and formats.parse_datetime(value) is None)):
        return Problem("field_value_invalid",
                       f"fieldValues.{key} must be a date like 2027-06-01.", _param(key))
    if fmt == "dateTime" and (not isinstance(value, str) or formats.parse_datetime(value) is None):
        return Problem("field_value_invalid", f"fieldValues.{key} must be a date and time "
                       "with a timezone, like 2027-06-01T19:30:00+02:00.", _param(key))
    return None


def _known(key: str, definition: dict[str, Any]) -> Problem | dict[str, Any]:
    per_pass = definition_read.per_pass_fields(definition)
    if key in per_pass:
        return per_pass[key]
    shared = {f.get("key") for _g, f in definition_read.fields(definition)}
    if key in shared:
        return Problem("field_not_per_pass",
                       f"{key} is a shared field: its value is set in the template.", _param(key))
    return Problem("unknown_field_key", f"The template has no field {key}.", _param(key))


def check_new(definition: dict[str, Any], values: dict[str, Any]) -> Problem | None:
    """The first problem with the values of a new pass, or None."""
    for key, value in values.items():
        field = _known(key, definition)
        if isinstance(field, Problem):
            return field
        if (problem := check_value(key, value, field)) is not None:
            return problem
    for key in definition_read.required_fields(definition):
        if key not in values or values[key] == "":
            return Problem("required_field_missing", f"fieldValues.{key} is required.",
                           _param(key))
    return None


def apply_patch(definition: dict[str, Any], current: dict[str, Any], patch: dict[str, Any]
                ) -> tuple[dict[str, Any], Problem | None]:
    """The values after `patch` (null clears an optional field), or the first problem."""
    required = set(definition_read.required_fields(definition))
    result = dict(current)
    for key, value in patch.items():
        field = _known(key, definition)
        if isinstance(field, Problem):
            return current, field
        if value is None or (value == "" and key in required):
            if key in required:
                return current, Problem("required_field_cleared",
                                        f"{key} is required and cannot be cleared.", _param(key))
            result.pop(key, None)
            continue
        if (problem := check_value(key, value, field)) is not None:
            return current, problem
        result[key] = value
    return result, None


def as_text(value: Any) -> str | None:
    """A value as the string a diff shows (numbers too); None when unset."""
    return None if value is None else str(value)


def diff(definition: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
         ) -> list[dict[str, Any]]:
    """One entry per changed field, in definition order: key, label, from, to (as strings)."""
    changes = []
    for key, field in definition_read.per_pass_fields(definition).items():
        old, new = before.get(key), after.get(key)
        if old != new or (old is None) != (new is None):
            changes.append({"key": key, "label": field.get("label", key),
                            "from": as_text(old), "to": as_text(new)})
    return changes


def wallet_visible(definition: dict[str, Any], changes: list[dict[str, Any]]) -> bool:
    """Whether any changed field is shown in a wallet (every field in a group is)."""
    shown = {f.get("key") for _group, f in definition_read.fields(definition)}
    return any(change["key"] in shown for change in changes)
