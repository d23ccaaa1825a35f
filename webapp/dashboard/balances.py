"""A pass's balance on its page: add points or spend them (loyalty), load or charge money
(gift cards), in the staff's own units (points, or money in major units: 12.50)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from flask import flash, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, ctx
from webapp.dashboard.htmx import go
from webapp.dashboard.once import once_per_form
from webapp.dashboard.passes import _detail
from webapp.errors import Conflict, InvalidRequest
from webapp.services.balances import ledger
from webapp.services.passes import queries

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


@bp.post(f"/{ENV}/passes/<pass_id>/balance")
@once_per_form
def passes_balance(pass_id: str) -> BaseResponse:
    item = queries.get(ctx(), pass_id)
    shown = ledger.for_page(ctx(), item)
    direction = request.form.get("direction", "earn")
    try:
        if shown is None:
            raise InvalidRequest("This pass keeps no balance.", param="amount")
        moved = amount(request.form.get("amount", ""), shown["digits"], direction)
        movement = ledger.adjust(ctx(), pass_id, amount=moved, source="dashboard",
                                 reason=request.form.get("reason") or None,
                                 reference=request.form.get("reference") or None,
                                 notification_mode=request.form.get("notification_mode",
                                                                    "notify"))
    except (InvalidRequest, Conflict) as exc:
        return _detail(pass_id, 422 if isinstance(exc, InvalidRequest) else 409,
                       partial="dashboard/passes/_balance.html", balance_problem=exc.message,
                       balance_form=request.form)
    after = ledger.for_page(ctx(), movement.pass_) or {}
    flash(f"Balance moved: now {after.get('text')}.")
    return go(url_for("dashboard.passes_show", pass_id=pass_id))
