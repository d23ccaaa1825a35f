"""Tills racing on one card: concurrent balance transactions are exact, on SQLite and on
PostgreSQL (run this file with `--db postgres` for the second).

The balance moves in one conditional UPDATE (`WHERE balance + amount >= 0`); PostgreSQL
re-checks it on the row the winner committed, SQLite runs one writer at a time. Each
movement's `balanceAfter` is read from the row its own UPDATE left.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import gift_card_definition, loyalty_definition, store_body
from tests.api.test_redemption_races import THREADS, _stampede
from tests.conftest import Api, assert_error, upload_asset


@pytest.fixture
def demo(app: Flask) -> None:
    from webapp.services.credentials import identities

    with app.app_context():  # (made at the first issue otherwise, in its transaction)
        identities.ensure_demo_identities()


def _pass(api: Api, definition: dict[str, Any], balance: int) -> dict[str, Any]:
    template = api.post("/v1/templates", store_body(definition)).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"], "balance": balance})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def _move(item: dict[str, Any], amount: int) -> Any:
    return lambda other: other.post(f"/v1/passes/{item['id']}/balance-transactions",
                                    {"amount": amount})


@pytest.mark.usefixtures("demo")
def test_two_spends_racing_for_the_last_points_have_one_winner(
        app: Flask, api: Api, org: dict, png: Any) -> None:
    item = _pass(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))), 100)
    answers = _stampede(app, org["keys"]["test"], _move(item, -60))
    statuses = Counter(r.status_code for r in answers)
    assert statuses == {201: 1, 409: THREADS - 1}, [r.get_json() for r in answers]
    [won] = [r.get_json() for r in answers if r.status_code == 201]
    assert won["balanceAfter"] == 40
    for lost in (r for r in answers if r.status_code == 409):
        assert assert_error(lost, 409, "conflict_error", "insufficient_balance")["balance"] == 40
    after = api.get(f"/v1/passes/{item['id']}").get_json()
    assert (after["balance"], after["lifetimePoints"]) == (40, 100)


@pytest.mark.usefixtures("demo")
def test_concurrent_charges_stop_at_zero_each_with_its_exact_balance(
        app: Flask, api: Api, org: dict) -> None:
    item = _pass(api, gift_card_definition(), 1000)
    answers = _stampede(app, org["keys"]["test"], _move(item, -300))
    assert Counter(r.status_code for r in answers) == {201: 3, 409: THREADS - 3}
    assert sorted(r.get_json()["balanceAfter"] for r in answers if r.status_code == 201) == [
        100, 400, 700]
    assert api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 100


@pytest.mark.usefixtures("demo")
def test_concurrent_earns_all_count(app: Flask, api: Api, org: dict, png: Any) -> None:
    item = _pass(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))), 0)
    answers = _stampede(app, org["keys"]["test"], _move(item, 10))
    assert Counter(r.status_code for r in answers) == {201: THREADS}
    assert sorted(r.get_json()["balanceAfter"] for r in answers) == [
        10 * n for n in range(1, THREADS + 1)]
    after = api.get(f"/v1/passes/{item['id']}").get_json()
    assert (after["balance"], after["lifetimePoints"]) == (10 * THREADS, 10 * THREADS)
    listed = api.get(f"/v1/passes/{item['id']}/balance-transactions?limit=100").get_json()
    assert len(listed["data"]) == THREADS


@pytest.mark.usefixtures("demo")
def test_a_spend_that_read_the_pass_before_another_won_is_refused(
        app: Flask, api: Api, org: dict) -> None:
    """The losing side of the race, made deterministic: the service read the pass (1000),
    then another charge committed; the conditional UPDATE changes nothing and the refusal
    names the balance as it is now."""
    from webapp.db.transaction import transaction
    from webapp.errors import InsufficientBalance
    from webapp.services.balances import ledger
    from webapp.services.context import Context
    from webapp.services.passes import queries

    item = _pass(api, gift_card_definition(), 1000)
    ctx = Context(org["id"], "test", actor="dashboard")
    with app.app_context():
        stale = queries.find(ctx, item["id"])
        assert stale.balance == 1000
        assert _move(item, -700)(api).status_code == 201
        with pytest.raises(InsufficientBalance) as caught, transaction() as session:
            ledger.apply(session, stale, amount=-700, reason=None, reference=None,
                         source="api", notification_mode="notify")
    assert caught.value.balance == 300
    assert api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 300
