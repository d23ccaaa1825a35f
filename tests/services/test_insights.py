"""Insights' recording rules that the API tests do not reach, and migration 0013's backfill
of the facts that were kept before it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from tests.api.factories import template_body
from tests.conftest import Api
from tests.support.migrating import at_head
from webapp import clock

MOMENT = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)


def _totals(ctx: Any, day: date) -> dict[str, Any]:
    from webapp.services import insights

    return insights.summary(ctx, start=day, end=day)["totals"]


def test_an_update_outcome_counts_once_and_only_from_pending(app: Flask, api: Api,
                                                             org: dict) -> None:
    from webapp.db.transaction import transaction
    from webapp.extensions import db
    from webapp.models import PassUpdate
    from webapp.services.context import Context
    from webapp.services.insights import record

    clock.set_now(lambda: MOMENT)
    app.extensions["job_dispatcher"] = lambda *args: None  # only this test records outcomes
    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    update_id = api.patch(f"/v1/passes/{item['id']}",
                          {"fieldValues": {"member": "Bea"}}).get_json()["update"]["id"]
    with app.app_context():
        update = db.session.get(PassUpdate, update_id)
        with transaction() as session:
            record.update_finished(session, update, "apple", "pending", "sent")
            record.update_finished(session, update, "apple", "sent", "delivered")  # not again
            record.update_finished(session, update, "google", "pending", "not_saved")
            record.update_finished(session, update, "google", "pending", "skipped")
        totals = _totals(Context(org["id"], "test"), MOMENT.date())
    assert (totals["updatesSent"], totals["updatesDelivered"], totals["updatesFailed"]) == \
        (1, 1, 0)
    assert totals["byPlatform"]["google"]["updatesSent"] == 0


def test_the_migration_backfills_what_was_kept_and_goes_down_again(tmp_path: Path,
                                                                   database: dict) -> None:
    if database["kind"] != "sqlite":
        pytest.skip("migrations are exercised on a file of their own")
    from flask_migrate import downgrade, upgrade

    url = f"sqlite:///{tmp_path / 'migrate.sqlite3'}"
    with at_head(tmp_path, url) as (ctx, template):
        from webapp.extensions import db
        from webapp.services.passes import issuing

        clock.set_now(lambda: MOMENT)
        try:
            values = {f["key"]: "x" for group in template.definition["config"]["fields"].values()
                      for f in group if f.get("binding") == "perPass"}
            first = issuing.issue(ctx, issuing.IssueRequest(template.id, values))
            issuing.issue(ctx, issuing.IssueRequest(template.id, values))
        finally:
            clock.set_now(None)
        db.session.remove()

        downgrade(revision="0012")
        # Facts as an older installation kept them: a device still registered, a Google
        # save then removal, and an update delivered to Apple and failed on Google.
        db.session.execute(text(
            "INSERT INTO apple_registrations (pass_id, organization_id, environment, "
            "device_library_id, pass_type_identifier, push_token, created_at, updated_at) "
            "VALUES (:p, :o, 'test', 'dev', 'pass.x', 'tok', '2026-11-21 08:00:00', "
            "'2026-11-21 08:00:00')"), {"p": first.id, "o": ctx.organization_id})
        db.session.execute(text(
            "INSERT OR REPLACE INTO google_objects (pass_id, organization_id, environment, "
            "state, attempts, wallet_state, saved_at, removed_at, created_at, updated_at) "
            "VALUES (:p, :o, 'test', 'written', 0, 'removed', '2026-11-21 09:00:00', "
            "'2026-11-22 09:00:00', '2026-11-20 10:00:00', '2026-11-22 09:00:00')"),
            {"p": first.id, "o": ctx.organization_id})
        db.session.execute(text(
            "INSERT INTO pass_updates (id, pass_id, organization_id, environment, kind, "
            "notification_mode, wallet_changed, changes, pass_version, apple_status, "
            "apple_devices, google_status, delivery_state, attempts, created_at, updated_at) "
            "VALUES ('pupd_1', :p, :o, 'test', 'update', 'silent', 1, '[]', 2, 'delivered', "
            "1, 'failed', 'done', 1, '2026-11-21 10:00:00', '2026-11-21 10:00:00')"),
            {"p": first.id, "o": ctx.organization_id})
        db.session.commit()
        db.session.remove()

        upgrade()
        from webapp.services import insights

        body = insights.summary(ctx, start=date(2026, 11, 20), end=date(2026, 11, 22))
        db.session.remove()
        apple, google = body["totals"]["byPlatform"].values()
        assert [d["issued"] for d in body["series"]] == [2, 0, 0]
        assert (apple["issued"], apple["added"], apple["installed"]) == (2, 1, 1)
        assert (google["added"], google["removed"], google["installed"]) == (1, 1, 0)
        assert (apple["updatesSent"], apple["updatesDelivered"]) == (1, 1)
        assert (google["updatesSent"], google["updatesFailed"]) == (1, 1)
        assert [(e["type"], e["platform"]) for e in insights.timeline(ctx, first.id)] == [
            ("issued", None), ("added", "apple"), ("added", "google"), ("updated", None),
            ("removed", "google")]
        db.session.remove()

        downgrade(revision="0012")
        tables = db.session.execute(text(
            "SELECT name FROM sqlite_master WHERE name IN ('insights_daily', "
            "'pass_activities')")).all()
        db.session.remove()
        assert tables == []
        upgrade()
