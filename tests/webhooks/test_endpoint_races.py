"""Endpoints deleted while passes change, deliveries are resent and test events sent: every
answer is a success or a 404, never a 500 (a delivery pointing at a deleted endpoint was a
ForeignKeyViolation on PostgreSQL; a resend of one whose endpoint went, an AttributeError)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

from flask import Flask
from sqlalchemy import func, select

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue

ROUNDS = 8  # endpoints each churning thread creates and deletes


def _deliveries(app: Flask) -> list[tuple[str, str]]:
    from webapp.extensions import db
    from webapp.models import WebhookDelivery

    with app.app_context():
        return [tuple(row) for row in db.session.execute(  # type: ignore[misc]
            select(WebhookDelivery.endpoint_id, WebhookDelivery.id).limit(50))]


def test_deleting_endpoints_while_passes_change_never_fails(
        app: Flask, api: Api, org: dict[str, Any], receiver: Receiver) -> None:
    from webapp.errors import Conflict, NotFound
    from webapp.extensions import db
    from webapp.models import WebhookDelivery, WebhookEndpoint
    from webapp.services.context import Context
    from webapp.services.webhooks import ping

    app.config["JOBS_SYNCHRONOUS"] = False  # deliveries stay pending: no receiver work
    passes = [issue(api, f"Member {n}", google=False)["id"] for n in range(4)]
    statuses: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()
    churned = threading.Event()

    def record(what: str, response: Any) -> None:
        with lock:
            statuses[(what, response.status_code)] += 1

    class Answered:  # the dashboard's "Send test event", as its view would answer
        def __init__(self, endpoint_id: str) -> None:
            with app.app_context():
                try:
                    ping.send_test_event(Context(org["id"], "test"), endpoint_id)
                    self.status_code = 201
                except NotFound:
                    self.status_code = 404
                except Conflict:
                    self.status_code = 409

    def change(pass_id: str) -> None:
        client = Api(app.test_client(), api.key)
        n = 0
        while not churned.is_set():
            n += 1
            record("patch", client.patch(f"/v1/passes/{pass_id}",
                                         {"fieldValues": {"member": f"M{n}"}}))

    def churn(name: str) -> None:
        client = Api(app.test_client(), api.key)
        for n in range(1, ROUNDS + 1):
            made = client.post("/v1/webhook-endpoints", {"url": f"{receiver.url}/{name}{n}"})
            record("create", made)
            hook = made.get_json()["id"]
            time.sleep(0.02)  # long enough for some passes to change
            for endpoint_id, delivery_id in _deliveries(app)[:3]:
                record("resend", client.post(
                    f"/v1/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/resend"))
            record("ping", Answered(hook))
            record("delete", client.delete(f"/v1/webhook-endpoints/{hook}"))

    endpoint(api, receiver.url)  # one that stays
    changers = [threading.Thread(target=change, args=(p,)) for p in passes]
    churners = [threading.Thread(target=churn, args=(name,)) for name in "ab"]
    for thread in changers + churners:
        thread.start()
    for thread in churners:
        thread.join(120)
    churned.set()
    for thread in changers:
        thread.join(60)
    assert {status for (_, status) in statuses} <= {200, 201, 202, 404, 409}, statuses
    assert statuses[("delete", 200)] == 2 * ROUNDS and statuses[("patch", 200)] > 4, statuses
    with app.app_context():  # nothing points at an endpoint that is gone
        orphans = db.session.scalar(select(func.count()).select_from(WebhookDelivery).where(
            WebhookDelivery.endpoint_id.not_in(select(WebhookEndpoint.id))))
        assert orphans == 0
