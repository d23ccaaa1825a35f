"""The definition member `enrollment` (issue 33: a public sign-up page), checked by
`definition`'s checker, and what the sign-up form asks for.

    "enrollment": {"enabled": true,
                   "fields": [{"key": "holderName", "required": true},
                              {"key": "holderEmail", "required": true},
                              {"key": "<a perPass field key>", "required": false}],
                   "consent": "I agree to the club's rules."}

`holderEmail` must be on the form and required (one person, one pass: the email is who the
person is); every required perPass field of the template must be on it, required; a template
whose passes each take their own barcode value cannot open sign-ups (a visitor cannot
choose it).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

HOLDER_KEYS = ("holderName", "holderEmail")
MAX_FIELDS = 12
MAX_CONSENT = 500
_ENROLLMENT = {"enabled": True, "fields": True, "consent": False}
_FIELD = {"key": True, "required": False}


@dataclass(frozen=True)
class FormField:
    """One input of the sign-up form: its key (the input's name), whether it must be
    filled, and for a template field its label and format."""

    key: str
    required: bool
    label: str | None = None
    format: str = "text"


def _per_pass(d: dict) -> dict[str, dict]:
    """Key -> field of the template's perPass fields (read here: `definition_read` imports
    `definition`, which imports this module)."""
    groups = d.get("config", {}).get("fields") if isinstance(d.get("config"), dict) else None
    out: dict[str, dict] = {}
    if isinstance(groups, dict):
        for items in groups.values():
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict) and item.get("binding") == "perPass" \
                        and isinstance(item.get("key"), str):
                    out.setdefault(item["key"], item)
    return out


def check(checker: Any, d: dict) -> None:
    """`enrollment`'s problems, added to `checker` (a `definition._Checker`)."""
    if "enrollment" not in d:
        return
    path = ("enrollment",)
    e = checker.expect_object(d["enrollment"], path)
    if e is None:
        return
    checker.members(e, path, _ENROLLMENT, "enrollment has enabled, fields and consent")
    if "enabled" in e:
        checker.expect_boolean(e, "enabled", path)
    if "consent" in e:
        checker.expect_string(e, "consent", path, 1, MAX_CONSENT)
    if "fields" in e:
        _fields(checker, d, e["fields"], (*path, "fields"))
    barcode = d.get("barcode")
    if e.get("enabled") is True and isinstance(barcode, dict) and barcode.get("perPass") is True:
        checker.add((*path, "enabled"), "not_allowed",
                    "Sign-ups cannot be enabled while each pass takes its own barcode value "
                    "(barcode.perPass): a visitor cannot choose it.")


def _fields(checker: Any, d: dict, value: object, path: tuple) -> None:
    array = checker.expect_array(value, path)
    if array is None:
        return
    if len(array) > MAX_FIELDS:
        checker.add(path, "too_many", f"enrollment.fields can hold at most {MAX_FIELDS} fields.")
    per_pass = _per_pass(d)
    seen: dict[str, bool] = {}
    for index, item in enumerate(array[:MAX_FIELDS]):
        item_path = (*path, index)
        f = checker.expect_object(item, item_path)
        if f is None:
            continue
        checker.members(f, item_path, _FIELD, "a sign-up field has key and required")
        required = checker.expect_boolean(f, "required", item_path) if "required" in f else False
        key = f.get("key")
        if "key" not in f:
            continue
        if not isinstance(key, str):
            checker.wrong_type((*item_path, "key"), "a string", key)
        elif key in seen:
            checker.add((*item_path, "key"), "duplicate_key",
                        f"enrollment.fields[{index}].key is {key[:64]}, which an earlier "
                        "field already uses.")
        elif key not in HOLDER_KEYS and key not in per_pass:
            checker.add((*item_path, "key"), "unknown_field",
                        f"enrollment.fields[{index}].key must be holderName, holderEmail or "
                        "the key of one of the template's perPass fields.")
        else:
            seen[key] = bool(required)
    _needed(checker, path, seen, per_pass)


def _needed(checker: Any, path: tuple, seen: dict[str, bool], per_pass: dict[str, dict]
            ) -> None:
    """holderEmail, and every required perPass field, on the form and required."""
    needed = ["holderEmail", *(k for k, f in per_pass.items() if f.get("required") is True)]
    for key in needed:
        if seen.get(key) is not True:
            checker.add(path, "required",
                        f"enrollment.fields must include {{\"key\": \"{key}\", \"required\": "
                        "true}" + (": one person, one pass is decided by the email address."
                                   if key == "holderEmail" else
                                   ": every pass of the template needs it."))


def settings(definition: dict[str, Any]) -> dict[str, Any] | None:
    """The definition's (valid) `enrollment` member, or None."""
    e = definition.get("enrollment")
    return e if isinstance(e, dict) else None


def enabled(definition: dict[str, Any]) -> bool:
    """Whether the definition opens sign-ups."""
    e = settings(definition)
    return e is not None and e.get("enabled") is True


def form_fields(definition: dict[str, Any]) -> list[FormField]:
    """The sign-up form's inputs, in the definition's order."""
    e = settings(definition) or {}
    per_pass = _per_pass(definition)
    out = []
    for item in e.get("fields") or []:
        key = item["key"]
        field = per_pass.get(key, {})
        out.append(FormField(key, item.get("required") is True, field.get("label"),
                             str(field.get("format") or "text")))
    return out


def normalize_email(address: str) -> str:
    """The form of an address one person is known by: trimmed, NFC, lower case (the local
    part too: no mail provider we know treats case as two mailboxes)."""
    return unicodedata.normalize("NFC", address.strip()).lower()
