"""A webhook endpoint's "Send test event": a real, signed delivery of a
`webhook_endpoint.test` event to that endpoint alone, listed in its deliveries."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from standardwebhooks.webhooks import Webhook

from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from tests.support.receiver import Receiver

_SECRET = re.compile(r'data-copy="(whsec_[A-Za-z0-9+/=]+)"')


@pytest.fixture(autouse=True)
def _inline(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)


def _create(dash: Dash, url: str, env: str = "test", **extra: Any) -> tuple[str, str]:
    response = dash.post(f"/dashboard/{env}/webhooks", {"url": url, **extra}, htmx=True,
                         header=True)
    assert response.status_code == 201, text(response)
    body = text(response)
    endpoint_id = re.search(rf"/dashboard/{env}/webhooks/(we_[0-9a-z]+)", body).group(1)
    return endpoint_id, _SECRET.search(body).group(1)


def _send(dash: Dash, endpoint_id: str, env: str = "test", **kw: Any) -> Any:
    return dash.post(f"/dashboard/{env}/webhooks/{endpoint_id}/test", htmx=True, header=True,
                     **kw)


def test_the_endpoint_page_offers_the_button(dash: Dash, receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    page = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert f'hx-post="/dashboard/test/webhooks/{endpoint_id}/test"' in page
    assert ">Send test event</button>" in page


def test_sends_a_signed_test_event_and_lists_its_delivery(dash: Dash, api: Api,
                                                          receiver: Receiver) -> None:
    endpoint_id, secret = _create(dash, receiver.url)
    response = _send(dash, endpoint_id)
    assert response.status_code == 201
    body = text(response)
    assert body.lstrip().startswith('<div id="webhook-panel">')
    assert "A test event (webhook_endpoint.test) is on its way" in body
    assert "<code>webhook_endpoint.test</code>" in body
    # The delivery runs once the event is committed: the page's log then shows how it went.
    log = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert "HTTP 200" in log and ">succeeded</span>" in log
    [request] = receiver.wait_for(1)
    payload = Webhook(secret).verify(request.body, request.headers)
    assert payload["type"] == "webhook_endpoint.test"
    assert payload["object"] == "event" and payload["environment"] == "test"
    assert payload["data"] == {"object": {"object": "webhook_endpoint", "id": endpoint_id,
                                          "url": receiver.url}}
    assert request.headers["webhook-id"] == payload["id"]
    # the event is a real one: the API finds it and lists the delivery
    assert api.get(f"/v1/events/{payload['id']}").get_json()["type"] == "webhook_endpoint.test"
    listed = api.get("/v1/events?type=webhook_endpoint.test").get_json()["data"]
    assert [e["id"] for e in listed] == [payload["id"]]
    deliveries = api.get(f"/v1/webhook-endpoints/{endpoint_id}/deliveries").get_json()["data"]
    assert [(d["eventId"], d["eventType"], d["status"]) for d in deliveries] == [
        (payload["id"], "webhook_endpoint.test", "succeeded")]


def test_goes_to_this_endpoint_only_whatever_it_subscribes_to(dash: Dash,
                                                              receiver: Receiver) -> None:
    other = Receiver().start()
    try:
        chosen, _ = _create(dash, receiver.url, events=["pass.voided"])
        _create(dash, other.url)  # all events
        assert _send(dash, chosen).status_code == 201
        [request] = receiver.wait_for(1)
        assert json.loads(request.body)["type"] == "webhook_endpoint.test"
        assert other.requests == []
    finally:
        other.stop()


def test_a_failed_test_delivery_shows_why_and_is_retried(dash: Dash,
                                                         receiver: Receiver) -> None:
    receiver.answer = lambda r: (503, {}, 0.0)
    endpoint_id, _ = _create(dash, receiver.url)
    assert _send(dash, endpoint_id).status_code == 201
    body = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert "HTTP 503" in body and "http_status" in body and "next attempt" in body
    # a due attempt: the log reloads itself, from its own URL
    assert (f'id="deliveries" hx-get="/dashboard/test/webhooks/{endpoint_id}/deliveries"'
            ' hx-trigger="load delay:2s"') in body
    log = dash.get(f"/dashboard/test/webhooks/{endpoint_id}/deliveries",
                   headers={"HX-Request": "true"})
    assert log.status_code == 200
    assert text(log).lstrip().startswith('<section class="card flush" id="deliveries" hx-get=')


def test_a_settled_log_does_not_reload_itself(dash: Dash, receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    page = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert '<section class="card flush" id="deliveries">' in page
    assert _send(dash, endpoint_id).status_code == 201
    body = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert '<section class="card flush" id="deliveries">' in body and "hx-trigger" not in body


def test_a_disabled_endpoint_gets_no_test_event(dash: Dash, receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    path = f"/dashboard/test/webhooks/{endpoint_id}"
    page = text(dash.post(path + "/status", {"status": "disabled"}, htmx=True, header=True))
    assert "Send test event" not in page
    response = _send(dash, endpoint_id)
    assert response.status_code == 409
    assert "The endpoint is disabled; enable it before sending a test event." in text(response)
    assert "webhook_endpoint.test" not in text(dash.get(path))
    assert receiver.requests == []


def test_needs_the_csrf_token(dash: Dash, receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    response = dash.post(f"/dashboard/test/webhooks/{endpoint_id}/test", csrf=False)
    assert response.status_code == 400
    assert receiver.requests == []


def test_another_organization_or_environment_cannot_send_it(dash: Dash, other_dash: Dash,
                                                            receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    assert _send(other_dash, endpoint_id).status_code == 404
    assert _send(dash, endpoint_id, env="live").status_code == 404
    assert _send(dash, "we_unknown").status_code == 404
    assert other_dash.get(f"/dashboard/test/webhooks/{endpoint_id}/deliveries").status_code \
        == 404
    assert receiver.requests == []
    assert _send(dash, endpoint_id).status_code == 201  # its own organization may
    assert len(receiver.wait_for(1)) == 1


def test_the_test_event_is_not_offered_as_a_subscription(dash: Dash, api: Api) -> None:
    # a type the API knows (its events can be listed) ...
    assert api.get("/v1/events?type=webhook_endpoint.test").status_code == 200
    # ... that the endpoint form does not offer: it reaches the endpoint it is sent to
    page = text(dash.get("/dashboard/test/webhooks"))
    assert 'value="pass.voided"' in page
    assert "webhook_endpoint.test" not in page
