"""Recording the facts insights count: each fact raises its day's counts (`insights_daily`)
in the caller's transaction, so the counts are exactly the facts that committed.

A holder's page view and add intent are also kept per pass (`pass_activities`), as are
wallet installs and removals: the pass's timeline reads them.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from webapp import clock
from webapp.db.transaction import transaction
from webapp.models import InsightsDaily, Pass, PassActivity, PassUpdate
from webapp.models.insights import ALL_PLATFORMS

WALLETS = ("apple", "google")
# A wallet's final delivery status -> what it counts as (other statuses: nothing was sent).
UPDATE_OUTCOMES = {
    "apple": {"sent": "delivered", "delivered": "delivered", "failed": "failed"},
    "google": {"updated": "delivered", "failed": "failed"},
}
_DAILY = cast(Table, InsightsDaily.__table__)
_ACTIVITY = cast(Table, PassActivity.__table__)
_KEY = ("organization_id", "environment", "metric", "day", "template_id", "platform")


def _upsert(insert_: Any) -> Any:
    statement = insert_(_DAILY)
    return statement.on_conflict_do_update(
        index_elements=list(_KEY), set_={"count": _DAILY.c.count + statement.excluded.count})


# Built once: building an upsert costs more than running it.
_UPSERT = {"postgresql": _upsert(postgresql.insert), "sqlite": _upsert(sqlite.insert)}


def bump(session: Session, item: Pass, metric: str, platforms: tuple[str, ...],
         day: date, by: int = 1) -> None:
    """Raise `metric` by `by` on `day` for the pass's template, once per platform given."""
    rows = [{"organization_id": item.organization_id, "environment": item.environment,
             "metric": metric, "day": day, "template_id": item.template_id,
             "platform": platform, "count": by} for platform in platforms]
    session.connection().execute(_UPSERT[session.get_bind().dialect.name], rows)


def _neutral(item: Pass) -> tuple[str, ...]:
    """Where a wallet-neutral count goes: the pass, and each wallet it is issued for."""
    return (ALL_PLATFORMS, *(w for w in WALLETS if getattr(item, w)))


def _activity(session: Session, item: Pass, kind: str, platform: str | None,
              at: datetime) -> None:
    session.connection().execute(insert(_ACTIVITY), {
        "pass_id": item.id, "kind": kind, "platform": platform, "at": at})


def issued(session: Session, item: Pass, count: int = 1) -> None:
    """A new pass (in the issuing transaction); `count` such passes, issued together with
    the same template, wallets and day."""
    bump(session, item, "issued", _neutral(item), item.created_at.date(), count)


def signup_viewed(session: Session, organization_id: str, environment: str,
                  template_id: str) -> None:
    """A visitor opened a template's open sign-up page (no pass yet: counted once, `all`)."""
    session.connection().execute(_UPSERT[session.get_bind().dialect.name], [{
        "organization_id": organization_id, "environment": environment,
        "metric": "signup_view", "day": clock.now().date(), "template_id": template_id,
        "platform": ALL_PLATFORMS, "count": 1}])


def signed_up(session: Session, item: Pass) -> None:
    """A pass issued from a sign-up page (in the sign-up's transaction)."""
    bump(session, item, "signup", _neutral(item), item.created_at.date())


def balance_changed(session: Session, item: Pass, at: datetime) -> None:
    """A balance transaction of a loyalty or gift card (in its transaction)."""
    bump(session, item, "balance_change", _neutral(item), at.date())


def page_viewed(item: Pass) -> None:
    """A holder opened the pass's page."""
    now = clock.now()
    with transaction() as session:
        _activity(session, item, "viewed", None, now)
        bump(session, item, "page_view", _neutral(item), now.date())


def add_intent(item: Pass, wallet: str) -> None:
    """A holder followed the page's "Add to Apple Wallet" / "Add to Google Wallet" link."""
    now = clock.now()
    with transaction() as session:
        _activity(session, item, "add_intent", wallet, now)
        bump(session, item, "add_intent", (wallet,), now.date())


def wallet_changed(session: Session, item: Pass, wallet: str, kind: str, count: int = 1
                   ) -> None:
    """`count` installs (`added`) or removals (`removed`) of the pass on `wallet`, in the
    caller's transaction."""
    if count <= 0:
        return
    now = clock.now()
    for _ in range(count):
        _activity(session, item, kind, wallet, now)
    bump(session, item, kind, (wallet,), now.date(), count)
    if kind == "added" and item.source == "enrollment":  # the sign-up funnel's last step
        bump(session, item, "signup_added", (wallet,), now.date(), count)


def update_finished(session: Session, record: PassUpdate, wallet: str, before: str,
                    after: str) -> None:
    """An update's delivery to `wallet` ended (`before` was its status): sent, and
    delivered or failed, counted on the day of the update."""
    updates_finished(session, wallet, [(record, before, after)])


def updates_finished(session: Session, wallet: str,
                     ended: list[tuple[PassUpdate, str, str]]) -> None:
    """`update_finished` for many updates (record, status before, after; a batch of
    pushes): one count per template, day and outcome rather than one per update."""
    groups: dict[tuple[str, str, str, date, str], tuple[Pass, int]] = {}
    for record, before, after in ended:
        outcome = UPDATE_OUTCOMES[wallet].get(after)
        if before != "pending" or outcome is None:
            continue
        item = session.get(Pass, record.pass_id)
        if item is None:  # deleted meanwhile: nothing left to count against
            continue
        key = (item.organization_id, item.environment, item.template_id,
               record.created_at.date(), outcome)
        counted = groups.get(key)
        groups[key] = (item, counted[1] + 1 if counted else 1)
    for (_org, _env, _template, day, outcome), (item, count) in groups.items():
        bump(session, item, "update_sent", (wallet,), day, count)
        bump(session, item, f"update_{outcome}", (wallet,), day, count)
