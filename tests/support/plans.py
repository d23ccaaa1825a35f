"""SQLite's query plans of what a piece of code runs: which statements read a table whole, or
an organization's whole part of one (issue 34: fast at a million passes)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from flask import Flask
from sqlalchemy import event


def explained(app: Flask, run: Callable[[], None]) -> list[tuple[str, list[str]]]:
    """Each SELECT, UPDATE or DELETE that `run` makes, with the lines of its plan. SQLite only."""
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
    with engine.connect() as connection:
        return [(statement, [row[-1] for row in connection.exec_driver_sql(
                    f"EXPLAIN QUERY PLAN {statement}", parameters)])
                for statement, parameters in ran]


def wide_reads(app: Flask, run: Callable[[], None], allowed: Collection[str] = ()) -> list[str]:
    """The plan lines of the statements `run` makes that SCAN a table, or SEARCH one on the
    organization and environment alone (but for the `allowed` tables, whose rows do not grow
    with passes: they may be read for an organization, never whole). SQLite only."""
    wide = []
    for _statement, plan in explained(app, run):
        for line in plan:
            found = re.match(r"(SCAN|SEARCH) (\w+)", line)
            if found is not None and (found[1] == "SCAN" or (
                    found[2] not in allowed
                    and line.endswith("(organization_id=? AND environment=?)"))):
                wide.append(line)
    return wide
