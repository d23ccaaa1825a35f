"""GET /v1/events and /v1/events/<id>: newest first, filters, 30 days, isolation; and the
`pass_update.delivered` event once both wallets are final."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import Api, assert_error
from tests.webhooks.conftest import Clock, issue, sweep


def test_events_list_newest_first_with_a_type_filter(api: Api) -> None:
    created = issue(api)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "Gold"}})
    api.delete(f"/v1/passes/{created['id']}")
    body = api.get("/v1/events").get_json()
    passes = [e for e in body["data"] if e["type"] != "pass_update.delivered"]
    assert [e["type"] for e in passes] == ["pass.voided", "pass.updated", "pass.created"]
    event = passes[0]
    assert set(event) == {"object", "id", "type", "environment", "createdAt", "data"}
    assert event["object"] == "event" and event["environment"] == "test"
    only = api.get("/v1/events?type=pass.updated").get_json()["data"]
    assert [e["type"] for e in only] == ["pass.updated"]
    assert api.get(f"/v1/events/{event['id']}").get_json() == event
    page = api.get("/v1/events?limit=1").get_json()
    assert page["hasMore"] and page["nextCursor"] == page["data"][0]["id"]
    rest = api.get(f"/v1/events?limit=100&cursor={page['nextCursor']}").get_json()
    assert [e["id"] for e in rest["data"]] == [e["id"] for e in body["data"][1:]]


@pytest.mark.parametrize(("query", "code", "param"), [
    ("type=pass.exploded", "parameter_invalid", "type"),
    ("limit=101", "parameter_invalid", "limit"),
    ("limit=x", "parameter_invalid", "limit"),
    ("cursor=evt_nope", "invalid_cursor", "cursor"),
    ("type=a&type=b", "parameter_invalid", "type"),
    ("other=1", "parameter_unknown", "other")])
def test_bad_event_queries_are_400(api: Api, query: str, code: str, param: str) -> None:
    assert_error(api.get(f"/v1/events?{query}"), 400, "invalid_request_error", code, param)


def test_events_are_isolated(api: Api, live_api: Api, other_api: Api) -> None:
    issue(api)
    [event] = api.get("/v1/events").get_json()["data"]
    for client in (live_api, other_api):
        assert client.get("/v1/events").get_json()["data"] == []
        assert_error(client.get(f"/v1/events/{event['id']}"), 404, "not_found_error")
    assert_error(api.get("/v1/events/pass_123"), 404, "not_found_error")


def test_events_are_kept_30_days(app: Flask, api: Api, frozen: Clock) -> None:
    issue(api)
    [event] = api.get("/v1/events").get_json()["data"]
    frozen.advance(days=29, hours=23)
    assert api.get(f"/v1/events/{event['id']}").status_code == 200
    frozen.advance(hours=2)
    assert api.get("/v1/events").get_json()["data"] == []
    assert_error(api.get(f"/v1/events/{event['id']}"), 404, "not_found_error")
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import Event
    from webapp.services.outbox import sweep as sweeper

    sweeper._last_purge = 0.0
    sweep(app)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Event)) == 0


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    """Wallet steps that finish when told (`done[wallet] = status`), else stay pending."""
    from webapp.db.transaction import transaction
    from webapp.services.outbox import pass_updates

    done: dict[str, str] = {}
    runs: list[str] = []

    def step(wallet: str):  # type: ignore[no-untyped-def]
        def run(records) -> None:  # type: ignore[no-untyped-def]
            for record in records:
                runs.append(wallet)
                if wallet in done:
                    with transaction():
                        setattr(record, f"{wallet}_status", done[wallet])

        return run

    monkeypatch.setattr(pass_updates, "STEPS", {"apple": step("apple"), "google": step("google")})
    yield {"done": done, "runs": runs}


def _delivered(api: Api) -> list[dict]:
    return api.get("/v1/events?type=pass_update.delivered").get_json()["data"]


def test_pass_update_delivered_once_both_wallets_are_final(app: Flask, api: Api, steps: dict,
                                                           frozen: Clock) -> None:
    created = issue(api)
    steps["done"]["apple"] = "no_devices"
    update = api.patch(f"/v1/passes/{created['id']}",
                       {"fieldValues": {"level": "Gold"}}).get_json()["update"]
    assert _delivered(api) == []  # Google is still pending
    frozen.advance(seconds=31)
    steps["done"]["google"] = "not_saved"
    assert sweep(app) >= 1  # the stale pending update is enqueued again
    [event] = _delivered(api)
    record = api.get(f"/v1/pass-updates/{update['id']}").get_json()
    assert event["data"]["object"] == record
    assert record["delivery"]["apple"]["status"] == "no_devices"
    frozen.advance(seconds=31)
    assert sweep(app) == 0  # done: nothing left to sweep
    from jobs import tasks

    with app.app_context():
        tasks.deliver_pass_update(update["id"])  # a duplicate job does no harm
    assert len(_delivered(api)) == 1


def test_a_wallet_the_pass_was_not_issued_for_counts_as_final(api: Api, steps: dict) -> None:
    created = issue(api, "A", google=False)
    steps["done"]["apple"] = "sent"
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "1"}})
    [event] = _delivered(api)
    assert event["data"]["object"]["delivery"]["google"]["status"] == "skipped"
    assert event["data"]["object"]["delivery"]["apple"]["status"] == "sent"
