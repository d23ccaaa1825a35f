"""A pass's export and erasure read only the pass's rows: no statement reads a table that grows
with passes whole, or an organization's part of it (issue 34: fast at a million passes).
SQLite's plans are checked; PostgreSQL's planner chooses from its statistics."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from tests.api.test_erasure import _inline_jobs, _lived  # noqa: F401 (the fixture)
from tests.conftest import Api
from tests.support.receiver import Receiver

# Read for the whole organization and environment: rows that do not grow with passes
# (unfinished imports, campaigns, bulk jobs, webhook endpoints).
PER_ORGANIZATION = {"uploads", "messages", "bulk_jobs", "webhook_endpoints"}


def _wide_reads(app: Flask, run: Any) -> list[str]:
    """The plan lines of the statements `run` makes that read a whole table, or a whole
    organization's part of one, but for PER_ORGANIZATION's tables."""
    from webapp.extensions import db

    ran: list[tuple[str, Any]] = []

    def keep(conn, cursor, statement, parameters, context, executemany) -> None:
        if not executemany and re.match(r"\s*(SELECT|UPDATE|DELETE|WITH)", statement):
            ran.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        run()
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    wide = []
    with engine.connect() as connection:
        for statement, parameters in ran:
            for *_, line in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}",
                                                       parameters):
                found = re.match(r"(SCAN|SEARCH) (\w+)", line)
                whole = found is not None and (
                    found[1] == "SCAN" or line.endswith("(organization_id=? AND environment=?)"))
                if whole and found is not None and found[2] not in PER_ORGANIZATION:
                    wide.append(line)
    return wide


def test_export_and_erasure_read_only_the_pass_s_rows(
        app: Flask, org: dict[str, Any], api: Api, receiver: Receiver, database: dict) -> None:
    """A pass with a history in every table (a bulk import with an externalId, an update, an
    email, a redemption, messages, webhook deliveries, stored answers)."""
    if database["kind"] != "sqlite":
        pytest.skip("SQLite's plans: PostgreSQL's planner chooses from its statistics")
    pass_id = _lived(app, org, api, receiver)

    def export_and_erase() -> None:
        assert api.get(f"/v1/passes/{pass_id}/export").status_code == 200
        assert api.post(f"/v1/passes/{pass_id}/erase").status_code == 200

    assert _wide_reads(app, export_and_erase) == []
