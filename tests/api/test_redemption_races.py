"""Two scanners at one door: concurrent redemptions of one pass count once, on SQLite and on
PostgreSQL (run this file with `--db postgres` for the second).

The pass's `redemption_count` goes up in one conditional UPDATE; PostgreSQL re-checks its
condition on the row the winner committed, SQLite runs one writer at a time.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api, assert_error

THREADS = 8


@pytest.fixture
def demo(app: Flask) -> None:
    from webapp.services.credentials import identities

    with app.app_context():  # (made at the first issue otherwise, in its transaction)
        identities.ensure_demo_identities()


def _pass(api: Api, redemption: dict[str, Any]) -> dict[str, Any]:
    template = api.post("/v1/templates", template_body(redemption=redemption)).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _stampede(app: Flask, key: str, call: Any) -> list[Any]:
    """`call(api)` from THREADS clients released at the same moment; their answers."""
    barrier = threading.Barrier(THREADS)
    answers: list[Any] = []
    lock = threading.Lock()

    def run() -> None:
        api = Api(app.test_client(), key)
        barrier.wait(10)
        response = call(api)
        with lock:
            answers.append(response)

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
        assert not thread.is_alive()
    return answers


def _statuses(answers: list[Any]) -> Counter[int]:
    return Counter(r.status_code for r in answers)


@pytest.mark.usefixtures("demo")
def test_concurrent_redemptions_of_a_single_use_pass_have_one_winner(
        app: Flask, api: Api, org: dict) -> None:
    item = _pass(api, {"mode": "single"})
    answers = _stampede(app, org["keys"]["test"], lambda other: other.post(
        f"/v1/passes/{item['id']}/redemptions", {"location": "Gate"}))
    assert _statuses(answers) == {201: 1, 409: THREADS - 1}, [r.get_json() for r in answers]
    [won] = [r.get_json() for r in answers if r.status_code == 201]
    for lost in (r for r in answers if r.status_code == 409):
        error = assert_error(lost, 409, "conflict_error", "already_redeemed")
        assert error["redemption"] == won
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 1
    listed = api.get(f"/v1/passes/{item['id']}/redemptions").get_json()["data"]
    assert listed == [won]


@pytest.mark.usefixtures("demo")
def test_concurrent_scans_stop_at_max_uses(app: Flask, api: Api, org: dict) -> None:
    item = _pass(api, {"mode": "multiple", "maxUses": 3})
    answers = _stampede(app, org["keys"]["test"],
                        lambda other: other.post("/v1/scans", {"code": item["shortId"]}))
    assert _statuses(answers) == {201: 3, 409: THREADS - 3}
    for lost in (r for r in answers if r.status_code == 409):
        assert_error(lost, 409, "conflict_error", "max_uses_reached")
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 3
    listed = api.get(f"/v1/passes/{item['id']}/redemptions").get_json()["data"]
    assert len(listed) == 3


@pytest.mark.usefixtures("demo")
def test_concurrent_redemptions_without_a_limit_all_count(app: Flask, api: Api,
                                                          org: dict) -> None:
    item = _pass(api, {"mode": "multiple"})
    answers = _stampede(app, org["keys"]["test"], lambda other: other.post(
        f"/v1/passes/{item['id']}/redemptions"))
    assert _statuses(answers) == {201: THREADS}
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == THREADS


@pytest.mark.usefixtures("demo")
def test_a_redemption_that_read_the_pass_before_another_won_is_refused(
        app: Flask, api: Api, org: dict) -> None:
    """The losing side of the race, made deterministic: the service read the pass (count 0),
    then another redemption committed; the conditional UPDATE changes nothing and the
    refusal names the winner."""
    from webapp.db.transaction import transaction
    from webapp.errors import RedemptionRefused
    from webapp.services.context import Context
    from webapp.services.passes import queries
    from webapp.services.redemptions import checkin

    item = _pass(api, {"mode": "single"})
    ctx = Context(org["id"], "test", actor="dashboard")
    with app.app_context():
        stale = queries.find(ctx, item["id"])
        assert stale.redemption_count == 0
        won = api.post(f"/v1/passes/{item['id']}/redemptions").get_json()
        with pytest.raises(RedemptionRefused) as caught, transaction() as session:
            checkin._redeem(session, ctx, stale, "api", None)
    assert caught.value.code == "already_redeemed"
    assert caught.value.redemption == won
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 1
