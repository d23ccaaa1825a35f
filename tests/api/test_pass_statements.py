"""What issuing a pass asks of the database, statement by statement (SQLite) and round
trip by round trip (PostgreSQL): webapp/services/_tx.py, _sql.py.

SQLite: the request's reads in one snapshot; the unit then goes on from it on the same
connection (COMMIT, BEGIN IMMEDIATE) and writes the key's claim with its answer, reads
the template again under the writers' lock and writes the rows. PostgreSQL: the claim,
then the rows and the COMMIT in one round trip (pipeline mode).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from tests.api.factories import template_body
from tests.conftest import Api


@pytest.fixture
def template_id(app: Flask, api: Api) -> str:
    from webapp.services import credentials

    with app.app_context():
        credentials.ensure_demo_identities()
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    template_id = response.get_json()["id"]
    first = api.post("/v1/passes", {"templateId": template_id,  # (its definition is cached)
                                    "fieldValues": {"member": "Bo"}})
    assert first.status_code == 201
    return template_id


@pytest.fixture
def traced(app: Flask, tmp_path: Path) -> Iterator[Callable[[], list[str]]]:
    """What the driver was asked since: SQLite's statements; for PostgreSQL one entry per
    round trip (up to a ReadyForQuery), holding the statements sent."""
    from webapp.extensions import db

    with app.app_context():
        engine = db.engine
    log: list[str] = []
    postgres = engine.dialect.name == "postgresql"
    with open(tmp_path / "libpq.trace", "w+") as trace:

        def checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
            if postgres:
                from psycopg.pq import Trace

                dbapi_connection.pgconn.trace(trace.fileno())
                dbapi_connection.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
            else:
                dbapi_connection.set_trace_callback(log.append)

        def checkin(dbapi_connection: Any, _record: Any) -> None:
            if postgres:
                dbapi_connection.pgconn.untrace()  # (flushes what it wrote)
            else:
                dbapi_connection.set_trace_callback(None)

        def asked() -> list[str]:
            if postgres:
                trace.seek(0)
                return _round_trips(trace.read())
            return [_words(sql) for sql in log]

        event.listen(engine, "checkout", checkout)
        event.listen(engine, "checkin", checkin)
        try:
            yield asked
        finally:
            event.remove(engine, "checkout", checkout)
            event.remove(engine, "checkin", checkin)


def _round_trips(trace: str) -> list[str]:
    """libpq's trace as round trips: the statements sent (first words) up to each
    ReadyForQuery."""
    trips, sent = [], []
    for kind, message, body in re.findall(r"^([FB])\t\d+\t(\w+)\t?(.*?)(?=^[FB]\t|\Z)",
                                          trace, re.M | re.S):
        if kind == "F" and message in ("Parse", "Query"):  # Parse: "name" "sql" ...
            sql = re.match(r'\s*(?:"[^"]*"\s+)?"(.*?)"(?:\s+\d+)*\s*$' if message == "Parse"
                           else r'\s*"(.*)"\s*$', body, re.S)
            sent.append(_words(sql.group(1)) if sql else "?")
        elif kind == "F" and message == "Bind" and body.split()[1] != '""':
            sent.append("(prepared)")  # a statement prepared earlier, by name
        elif kind == "B" and message == "ReadyForQuery":
            trips.append(" | ".join(sent))
            sent = []
    return trips


def _words(sql: str) -> str:
    words = sql.replace('"', " ").split()
    if words[:2] == ["INSERT", "INTO"]:
        return f"INSERT {words[2]}"
    if words[0] == "SELECT" and "FROM" in words:
        return f"SELECT {words[words.index('FROM') + 1]}"
    return " ".join(words[:2])


def test_what_an_issue_asks_of_the_database(app: Flask, api: Api, template_id: str,
                                            traced: Callable[[], list[str]], database: dict
                                            ) -> None:
    from webapp.extensions import db

    with app.app_context():
        engine = db.engine
    commits: list[int] = []

    def committed(_connection: Any) -> None:
        commits.append(1)

    event.listen(engine, "commit", committed)
    try:
        response = api.post("/v1/passes", {"templateId": template_id,
                                           "fieldValues": {"member": "Ada"}})
    finally:
        event.remove(engine, "commit", committed)
    assert response.status_code == 201, response.get_json()
    # One commit through the session: on SQLite the read snapshot ends on the driver and
    # the same session transaction goes on as the write.
    assert len(commits) == 1
    if database["kind"] == "sqlite":
        assert traced() == [
            "BEGIN", "SELECT api_keys", "SELECT templates", "SELECT webhook_endpoints",
            "COMMIT", "BEGIN IMMEDIATE", "INSERT idempotency_records", "SELECT templates",
            "INSERT passes", "INSERT google_objects", "INSERT events", "COMMIT"]
    else:
        assert traced() == [
            "BEGIN", "SELECT api_keys", "SELECT templates", "SELECT webhook_endpoints",
            "INSERT idempotency_records",
            "INSERT passes | INSERT google_objects | INSERT events | COMMIT"]
