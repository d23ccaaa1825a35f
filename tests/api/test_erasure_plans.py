"""A pass's export and erasure read only the pass's rows: no statement reads a table that grows
with passes whole, or an organization's part of it (issue 34: fast at a million passes).
SQLite's plans are checked; PostgreSQL's planner chooses from its statistics."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.test_erasure import _inline_jobs, _lived  # noqa: F401 (the fixture)
from tests.conftest import Api
from tests.support.plans import wide_reads
from tests.support.receiver import Receiver

# May be read for the whole organization and environment (never whole): rows that do not
# grow with passes (unfinished imports, campaigns, bulk jobs, webhook endpoints).
PER_ORGANIZATION = {"uploads", "messages", "bulk_jobs", "webhook_endpoints"}


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

    assert wide_reads(app, export_and_erase, PER_ORGANIZATION) == []
