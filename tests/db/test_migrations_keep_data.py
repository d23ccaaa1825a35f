"""Going down and up the migrations on SQLite keeps every row: a table that batch mode rebuilds
(passes, when a column is dropped) must not take the rows that point at it along."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from tests.support.migrating import at_head


def _counts(db) -> dict[str, int]:
    tables = ("passes", "download_links", "pass_updates")
    return {t: db.session.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables}


def test_down_and_up_keeps_the_rows_that_point_at_passes(tmp_path: Path) -> None:
    from flask_migrate import downgrade, upgrade

    from webapp.extensions import db
    from webapp.services.passes import download_links, issuing
    from webapp.services.passes.issuing import IssueRequest

    url = f"sqlite:///{tmp_path / 'keep.sqlite'}"
    with at_head(tmp_path, url) as (ctx, template):
        issued = issuing.issue(ctx, IssueRequest(template_id=template.id,
                                                 field_values={"member": "Ada"}))
        download_links.create(ctx, issued.id)
        before = _counts(db)
        assert before["passes"] == 1 and before["download_links"] == 1
        db.session.remove()
        downgrade(revision="0005")
        assert _counts(db) == before
        upgrade()
        assert _counts(db) == before


def test_0025_fills_in_the_pass_each_earlier_event_is_about(empty_database: str,
                                                             tmp_path: Path) -> None:
    """Events recorded before `events.pass_id` get it from their data, by the rule `emit`
    applies to new ones: the object's ID for a pass, else its `passId`."""
    from flask_migrate import downgrade, upgrade

    from webapp.db.transaction import transaction
    from webapp.extensions import db
    from webapp.services.passes import issuing
    from webapp.services.passes.issuing import IssueRequest
    from webapp.services.webhooks import events

    with at_head(tmp_path, empty_database) as (ctx, template):
        issued = issuing.issue(ctx, IssueRequest(template_id=template.id,
                                                 field_values={"member": "Ada"}))
        scope = {"organization_id": ctx.organization_id, "environment": ctx.environment}
        with transaction() as session:
            events.emit(session, **scope, type="pass.email_sent", data={"object": {
                "object": "email", "id": "pem_1", "passId": issued.id, "to": "a@b.test"}})
            events.emit(session, **scope, type="pass_update.delivered", data={"object": {
                "object": "pass_update", "id": "pup_1", "passId": "pass_other"}})
            events.emit(session, **scope, type="bulk_job.completed",
                        data={"object": {"object": "bulk_job", "id": "bjob_1"}})
            events.emit(session, **scope, type="message.sent", data={"object": {
                "object": "message", "id": "msg_1", "audience": {"search": issued.id}}})
            for odd in ({"object": {"object": "pass", "id": 7}}, {"object": "pass_1"},
                        {"object": {"object": "email", "passId": True}}):
                events.emit(session, **scope, type="pass.updated", data=odd)
        query = text("SELECT type, pass_id FROM events ORDER BY id")
        made = db.session.execute(query).all()
        assert made == [("pass.created", issued.id), ("pass.email_sent", issued.id),
                        ("pass_update.delivered", "pass_other"), ("bulk_job.completed", None),
                        ("message.sent", None), *[("pass.updated", None)] * 3]
        db.session.remove()
        downgrade(revision="0024")
        upgrade()
        assert db.session.execute(query).all() == made


def test_0026_keeps_the_stored_answers_and_names_no_pass_for_earlier_ones(
        empty_database: str, tmp_path: Path) -> None:
    """Answers stored before `idempotency_records.pass_id` keep their bodies and name no pass
    (an erasure opens them all until they expire)."""
    from flask_migrate import downgrade, upgrade

    from webapp.extensions import db

    with at_head(tmp_path, empty_database) as (ctx, _template):
        db.session.execute(text(
            "INSERT INTO idempotency_records (id, organization_id, environment, key, "
            "fingerprint, request_id, state, status_code, body, pass_id, created_at, "
            "locked_at) VALUES ('idem_1', :org, 'test', 'k1', 'f', 'req_1', 'completed', 201, "
            "'sealed', 'pass_1', :now, :now)"),
            {"org": ctx.organization_id, "now": "2026-11-30 00:00:00"})
        db.session.commit()
        db.session.remove()
        downgrade(revision="0025")
        upgrade()
        assert db.session.execute(text(
            "SELECT key, body, pass_id FROM idempotency_records")).all() == [
            ("k1", "sealed", None)]
