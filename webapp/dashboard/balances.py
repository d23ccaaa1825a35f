"""A pass's balance on its page: add points or spend them (loyalty), load or charge money
(gift cards), in the staff's own units (points, or money in major units: 12.50)."""

from __future__ import annotations

from flask import flash, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, ctx, forms
from webapp.dashboard.htmx import go
from webapp.dashboard.once import once_per_form
from webapp.dashboard.passes import _detail
from webapp.errors import Conflict, InvalidRequest
from webapp.services.balances import ledger
from webapp.services.passes import queries


@bp.post(f"/{ENV}/passes/<pass_id>/balance")
@once_per_form
def passes_balance(pass_id: str) -> BaseResponse:
    item = queries.get(ctx(), pass_id)
    shown = ledger.for_page(ctx(), item)
    direction = request.form.get("direction", "earn")
    try:
        if shown is None:
            raise InvalidRequest("This pass keeps no balance.", param="amount")
        moved = forms.amount(request.form.get("amount", ""), shown["digits"], direction)
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
