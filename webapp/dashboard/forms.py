"""Dashboard input parsing (separate from the API's schemas: the surfaces evolve apart).

Service errors name API parameters (`fieldValues.seat`, `holderEmail`); `field_name` turns
them into the form's input names so the message appears next to the right input.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from werkzeug.datastructures import MultiDict

from webapp.domain import definition_read
from webapp.domain.text import printable, problem
from webapp.errors import InvalidRequest
from webapp.services.passes.issuing import IssueRequest

_PARAMS = {"holderEmail": "holder_email", "holderName": "holder_name",
           "barcodeValue": "barcode_value", "templateId": "template_id",
           "platforms": "platforms", "notificationMode": "notification_mode",
           "fieldValues": "fields", "expiresInSeconds": "expires_in"}


def field_name(param: str | None) -> str:
    """The form input a service error's `param` points at ("" when none fits)."""
    if not param:
        return ""
    if param.startswith("fieldValues."):
        return "fv-" + param.split(".", 1)[1]
    if param.startswith("platforms."):
        return "platforms"
    return _PARAMS.get(param, param)


def check_text(form: MultiDict[str, str]) -> None:
    """Every input holds text a wallet can show (the API refuses the same, `webapp.domain.text`).

    :raises InvalidRequest: naming the first input that does not.
    """
    for name, value in form.items(multi=True):
        found = problem(name) or problem(value)
        if found is not None:
            shown = printable(name)[:64]
            raise InvalidRequest(f"The input {shown} {found}.", param=shown)


def _value(raw: str, fmt: str) -> str | int | float:
    """Numbers typed into a number field are sent as numbers; everything else as text."""
    if fmt == "number":
        try:
            number = float(raw)
        except ValueError:
            return raw
        if number.is_integer() and "." not in raw and "e" not in raw.lower():
            return int(raw)
        return number if abs(number) != float("inf") else raw
    return raw


# A per-pass text field with one of these keys holds the holder's name (the designer's
# starter calls it `holder`): the issue form asks for the name once, in that field's input.
HOLDER_NAME_KEYS = ("holder", "holderName", "holder_name", "name")


def holder_field_key(fields: list[dict[str, Any]]) -> str | None:
    """The key of the per-pass field meant for the holder's name, if the template has one."""
    for field in fields:
        if field["key"] in HOLDER_NAME_KEYS and field.get("format", "text") == "text":
            return str(field["key"])
    return None


def missing_values(form: MultiDict[str, str], fields: list[dict[str, Any]],
                   barcode_per_pass: bool) -> dict[str, str]:
    """Every required input left empty, by input name, so all are shown at once."""
    missing = {f"fv-{f['key']}": f"{f['label']} is required." for f in fields
               if f.get("required") and not form.get(f"fv-{f['key']}", "").strip()}
    if barcode_per_pass and not form.get("barcode_value", "").strip():
        missing["barcode_value"] = "Barcode value is required."
    return missing


def issue_request(form: MultiDict[str, str], fields: list[dict[str, Any]],
                  supported: dict[str, bool]) -> IssueRequest:
    """An issue request from the new-pass form; empty optional values are left out.

    The holder's name is the `holder_name` input, or else the holder-name field's value.
    """
    values = typed_values(form, fields)
    platforms = {w: form.get(f"platform-{w}") == "on" for w in ("apple", "google")
                 if supported.get(w)}
    holder_key = holder_field_key(fields)
    holder_name = form.get("holder_name", "").strip() or (
        str(values[holder_key]) if holder_key in values else None)
    return IssueRequest(
        template_id=form.get("template_id", ""), field_values=values,
        holder_name=holder_name,
        holder_email=form.get("holder_email", "").strip() or None,
        barcode_value=form.get("barcode_value", "").strip() or None,
        platforms=platforms or None,
    )


def per_pass_fields(template: Any) -> list[dict[str, Any]]:
    """The template's per-pass fields as the forms show them (key, label, required,
    format)."""
    return [{"key": key, "label": f.get("label") or key, "required": f.get("required") is True,
             "format": f.get("format", "text")}
            for key, f in definition_read.per_pass_fields(template.definition).items()]


def typed_values(form: MultiDict[str, str], fields: list[dict[str, Any]]) -> dict[str, Any]:
    """The per-pass values typed into `fv-<key>` inputs; empty inputs are left out."""
    values: dict[str, Any] = {}
    for field in fields:
        raw = form.get(f"fv-{field['key']}", "").strip()
        if raw:
            values[field["key"]] = _value(raw, field.get("format", "text"))
    return values


def value_patch(form: MultiDict[str, str], fields: list[dict[str, Any]]) -> dict[str, Any]:
    """The changed values of the edit form: a cleared optional field becomes null."""
    patch: dict[str, Any] = {}
    for field in fields:
        name = f"fv-{field['key']}"
        if name not in form:
            continue
        raw = form.get(name, "").strip()
        current = field.get("value")
        new: Any = _value(raw, field.get("format", "text")) if raw else None
        if (current is None and new is None) or (current is not None and new is not None
                                                 and str(current) == str(new)):
            continue
        patch[field["key"]] = new
    return patch


def form_values(form: MultiDict[str, str]) -> dict[str, str]:
    """What was typed, to put back into a re-rendered form."""
    return {key: form.get(key, "") for key in form if key != "csrf_token"}


_NUMBER = re.compile(r"\d{1,13}([.,]\d{1,4})?")


def amount(text: str, digits: int, direction: str) -> int:
    """A form's amount in points or minor units, signed by the button pressed.

    :raises InvalidRequest: not a positive number with at most `digits` decimals.
    """
    text = text.strip().replace(" ", "")
    unit = "points" if digits == 0 else f"an amount with at most {digits} decimals"
    if not _NUMBER.fullmatch(text):
        raise InvalidRequest(f"Enter {unit}, like {'50' if digits == 0 else '12.50'}.",
                             param="amount")
    try:
        value = Decimal(text.replace(",", ".")).scaleb(digits)
    except InvalidOperation:  # pragma: no cover - the pattern admits numbers only
        raise InvalidRequest(f"Enter {unit}.", param="amount") from None
    if value != value.to_integral_value() or value <= 0:
        raise InvalidRequest(f"Enter {unit}, more than 0.", param="amount")
    return int(value) * (-1 if direction == "spend" else 1)
