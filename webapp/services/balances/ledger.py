"""Move a pass's balance (earn, spend) and list its movements.

Two movements of one pass at the same moment are both exact: the balance moves in one
conditional UPDATE (`SET balance = balance + amount WHERE balance + amount >= 0`), which
PostgreSQL re-checks on the row the other writer committed and SQLite runs one writer at a
time; each movement then reads the balance its own UPDATE left (`balanceAfter`). So two
spends racing for the same last points: one wins, the other is refused with the balance.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.db import pagination
from webapp.db.transaction import changed_rows, insert_new, transaction
from webapp.domain import balances
from webapp.domain import text as text_rules
from webapp.domain.update_notice import NOTIFICATION_MODES
from webapp.errors import Conflict, InsufficientBalance, InvalidRequest
from webapp.models import BalanceTransaction, Pass, Template
from webapp.models.balance import MAX_REASON_LENGTH, MAX_REFERENCE_LENGTH
from webapp.services.context import Context
from webapp.services.insights import record as insights
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import queries, views
from webapp.services.templates import revisions
from webapp.services.webhooks import events

SOURCES = ("api", "dashboard", "scanner", "bulk")
# The keys a balance or tier change carries in a pass update (and Apple's field keys):
# field keys have no dots, so they never name a template's field.
BALANCE_KEY, TIER_KEY = "pass.balance", "pass.tier"


def adjust(ctx: Context, pass_id: str, *, amount: int, source: str, reason: str | None = None,
           reference: str | None = None, notification_mode: str = "notify"
           ) -> BalanceTransaction:
    """Earn (`amount` > 0) or spend (< 0) on a pass's balance, and push the change.

    :raises InvalidRequest: a bad amount, reason, reference, source or mode; a pass whose
        template keeps no balance (`balance_not_supported`); a balance over the maximum.
    :raises NotFound: no such pass.
    :raises Conflict: the pass is voided (`pass_voided`).
    :raises InsufficientBalance: a spend larger than the balance.
    """
    reason, reference = checked(amount, reason, reference, source, notification_mode)
    with transaction() as session:
        item = queries.find(ctx, pass_id)
        movement = apply(session, item, amount=amount, reason=reason, reference=reference,
                         source=source, notification_mode=notification_mode)
    return movement


def list_(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[BalanceTransaction]:
    """A pass's balance transactions, newest first.

    :raises NotFound: no such pass.
    :raises InvalidRequest: bad limit or cursor.
    """
    item = queries.find(ctx, pass_id)
    scope = select(BalanceTransaction.id).where(BalanceTransaction.pass_id == item.id)
    query = select(BalanceTransaction).where(BalanceTransaction.pass_id == item.id)
    return pagination.paginate(query, BalanceTransaction.id, scope, limit=limit, cursor=cursor)


def wire(movement: BalanceTransaction) -> dict[str, Any]:
    """The balance transaction as the API and events show it."""
    return {"id": movement.id, "object": "balance_transaction", "passId": movement.pass_id,
            "amount": movement.amount, "balanceAfter": movement.balance_after,
            "reason": movement.reason, "reference": movement.reference,
            "source": movement.source, "createdAt": clock.isoformat(movement.created_at)}


def opening(item: Pass, source: str) -> BalanceTransaction | None:
    """The movement that opens a new pass's balance (None: it opens at 0 or has none), so a
    pass's movements always add up to its balance."""
    if not item.balance:
        return None
    return BalanceTransaction(
        id=ids.new_id("btx"), organization_id=item.organization_id,
        environment=item.environment, pass_id=item.id, amount=item.balance,
        balance_after=item.balance, reason="opening balance", reference=None, source=source,
        created_at=item.created_at)


def checked(amount: object, reason: str | None, reference: str | None, source: str,
            notification_mode: str) -> tuple[str | None, str | None]:
    """The reason and reference to keep (stripped; empty is none).

    :raises InvalidRequest: what is wrong with the movement as asked.
    """
    if source not in SOURCES:
        raise InvalidRequest(f"source must be one of {', '.join(SOURCES)}.", param="source")
    if notification_mode not in NOTIFICATION_MODES:
        raise InvalidRequest(f"notificationMode must be one of {', '.join(NOTIFICATION_MODES)}.",
                             param="notificationMode")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise InvalidRequest("amount must be an integer (points, or minor units of money).",
                             param="amount")
    if amount == 0:
        raise InvalidRequest("amount must not be 0: earn with a positive amount, spend with a "
                             "negative one.", param="amount")
    if abs(amount) > balances.MAX_BALANCE:
        raise InvalidRequest(f"amount must be between -{balances.MAX_BALANCE:,} and "
                             f"{balances.MAX_BALANCE:,}.", param="amount")
    return (_text("reason", reason, MAX_REASON_LENGTH),
            _text("reference", reference, MAX_REFERENCE_LENGTH))


def _text(name: str, value: str | None, limit: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidRequest(f"{name} must be a string.", param=name)
    value = value.strip()
    problem = text_rules.problem(value)
    if problem is None and any(ch in value for ch in "\t\r\n"):
        problem = "has more than one line"
    if problem is not None:
        raise InvalidRequest(f"{name} {problem}.", param=name)
    if len(value) > limit:
        raise InvalidRequest(f"{name} must be at most {limit} characters.", param=name)
    return value or None


def apply(session: Session, item: Pass, *, amount: int, reason: str | None,
          reference: str | None, source: str, notification_mode: str) -> BalanceTransaction:
    """Move the balance of `item` (read in this transaction), record the movement, the
    wallets' update and the events; the movement comes with its pass (`pass_`) after it.

    :raises InvalidRequest: the pass keeps no balance; the balance would pass the maximum.
    :raises Conflict: the pass is voided.
    :raises InsufficientBalance: a spend larger than the balance.
    """
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    kind = balances.balance_kind(definition.get("type"))
    if kind is None or item.balance is None:
        raise InvalidRequest(
            f"This pass's template is of type {definition.get('type')}, which keeps no "
            "balance: only loyalty and gift_card passes have one.",
            code="balance_not_supported", param="passId")
    now = clock.now()
    values: dict[str, Any] = {"balance": Pass.balance + amount, "version": Pass.version + 1,
                              "updated_at": now, "wallet_updated_at": now}
    if kind == "points" and amount > 0:
        values["lifetime_points"] = Pass.lifetime_points + amount
    won = changed_rows(session, sql_update(Pass).where(
        Pass.id == item.id, Pass.status == "active", Pass.balance + amount >= 0,
        Pass.balance + amount <= balances.MAX_BALANCE).values(**values)
        .execution_options(synchronize_session=False))
    session.refresh(item)  # the row as it is now: after our UPDATE, or as it stopped us
    if won != 1:
        _refuse(item, amount, definition)
    movement = BalanceTransaction(
        id=ids.new_id("btx"), organization_id=item.organization_id,
        environment=item.environment, pass_id=item.id, amount=amount,
        balance_after=item.balance, reason=reason, reference=reference, source=source,
        created_at=now)
    insert_new(session, movement)
    insights.balance_changed(session, item, now)
    _record(session, item, definition, movement, notification_mode)
    movement.pass_ = item
    return movement


def _refuse(item: Pass, amount: int, definition: dict[str, Any]) -> None:
    """Why the conditional UPDATE changed nothing.

    :raises Conflict: voided. :raises InsufficientBalance: too little. :raises InvalidRequest:
        too much.
    """
    balance = item.balance or 0
    if item.status == "voided":
        raise Conflict("This pass is voided: its balance cannot change.", code="pass_voided")
    if balance + amount < 0:
        raise InsufficientBalance(
            f"The pass's balance is {balances.shown(definition, balance)}: it cannot spend "
            f"{balances.shown(definition, -amount)}.", pass_id=item.id, balance=balance)
    if balance + amount > balances.MAX_BALANCE:
        raise InvalidRequest(f"A balance can be at most {balances.MAX_BALANCE:,}; this one is "
                             f"{balance:,}.", code="balance_too_large", param="amount")
    raise Conflict("The pass changed while its balance was moving; retry.",
                   code="concurrent_update")  # pragma: no cover - one of the above holds


def _record(session: Session, item: Pass, definition: dict[str, Any],
            movement: BalanceTransaction, notification_mode: str) -> None:
    """The pass update (the wallets' push) and the events of a movement."""
    after = item.balance
    label = (balances.points_label(definition) if definition.get("type") == "loyalty"
             else "Balance")
    changes = [{"key": BALANCE_KEY, "label": label,
                "from": balances.shown(definition, (after or 0) - movement.amount),
                "to": balances.shown(definition, after)}]
    earned = movement.amount if movement.amount > 0 else 0
    tier_before = balances.tier_for(definition, None if item.lifetime_points is None
                                    else item.lifetime_points - earned)
    tier_after = balances.tier_for(definition, item.lifetime_points)
    if tier_before != tier_after:
        changes.append({"key": TIER_KEY, "label": "Tier",
                        "from": tier_before.name if tier_before else None,
                        "to": tier_after.name if tier_after else None})
    template = session.get(Template, item.template_id)
    item.template_name = template.name if template else None
    outbox_record.pass_updated(session, item, changes, notification_mode, True)
    scope = {"organization_id": item.organization_id, "environment": item.environment}
    events.emit(session, **scope, type="pass.balance_changed",
                data=events.pass_data(session, item, balanceTransaction=wire(movement)))
    if tier_before != tier_after:
        events.emit(session, **scope, type="pass.tier_changed", data=events.pass_data(
            session, item, tier={"from": tier_before.name if tier_before else None,
                                 "to": tier_after.name if tier_after else None}))


def shown_pass(movement: BalanceTransaction) -> Pass:
    """The movement's pass, ready for the front doors (template name, preview)."""
    item: Pass = movement.pass_
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    return views.attach(item, item.template_name, definition)


def for_page(ctx: Context, item: Pass) -> dict[str, Any] | None:
    """What the dashboard's pass page and scanner show of a pass's balance (None: it keeps
    none): the balance as text, its label, lifetime points and tier, the currency's minor
    units, and the newest movements with their amounts as text."""
    if item.balance is None:
        return None
    definition = item.definition or revisions.definition_of(
        item.template_id, item.template_revision) or {}
    code = balances.currency(definition)
    loyalty = definition.get("type") == "loyalty"
    history = list_(ctx, item.id, limit=20).data
    return {"loyalty": loyalty, "currency": code,
            "digits": balances.CURRENCIES.get(code or "", 0),
            "label": balances.points_label(definition) if loyalty else "Balance",
            "text": balances.shown(definition, item.balance),
            "lifetime": balances.shown(definition, item.lifetime_points),
            "tier": views.tier_name(item),
            "history": [(m, balances.shown(definition, m.amount),
                         balances.shown(definition, m.balance_after)) for m in history]}
