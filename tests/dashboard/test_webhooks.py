"""The webhooks page: endpoints, the secret shown once, the delivery log with each attempt,
resend, rotate, enable/disable, delete; CSRF and tenant isolation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from standardwebhooks.webhooks import Webhook

from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from tests.support.receiver import Receiver
from tests.webhooks.conftest import issue

_SECRET = re.compile(r'data-copy="(whsec_[A-Za-z0-9+/=]+)"')


@pytest.fixture(autouse=True)
def _inline(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)


def _create(dash: Dash, url: str, **extra: Any) -> tuple[str, str]:
    response = dash.post("/dashboard/test/webhooks", {"url": url, **extra}, htmx=True,
                         header=True)
    assert response.status_code == 201, text(response)
    body = text(response)
    assert body.lstrip().startswith('<div id="webhooks-panel">')
    secret = _SECRET.search(body).group(1)
    endpoint_id = re.search(r"/dashboard/test/webhooks/(we_[0-9a-z]+)", body).group(1)
    return endpoint_id, secret


def test_the_page_lists_endpoints_without_secrets(dash: Dash, receiver: Receiver) -> None:
    endpoint_id, secret = _create(dash, receiver.url, description="CRM sync")
    page = text(dash.get("/dashboard/test/webhooks"))
    assert receiver.url in page and "CRM sync" in page and "Webhooks" in page
    assert secret not in page
    assert secret not in text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert receiver.url not in text(dash.get("/dashboard/live/webhooks"))


def test_bad_input_is_422_next_to_the_field(app: Flask, dash: Dash) -> None:
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = False
    response = dash.post("/dashboard/test/webhooks", {"url": "http://127.0.0.1/x"},
                         htmx=True, header=True)
    assert response.status_code == 422
    assert '<p class="field-error" id="err-url">' in text(response)
    response = dash.post("/dashboard/live/webhooks", {"url": "http://example.com/x"},
                         htmx=True, header=True)
    assert response.status_code == 422 and "must use https" in text(response)


def test_chosen_events_only(dash: Dash, api: Api, receiver: Receiver) -> None:
    _endpoint_id, _ = _create(dash, receiver.url, events=["pass.voided"])
    issue(api)
    assert receiver.requests == []
    assert "pass.voided" in text(dash.get("/dashboard/test/webhooks"))


def test_delivery_log_shows_attempts_and_resend_sends_again(dash: Dash, api: Api,
                                                            receiver: Receiver) -> None:
    answers = iter([500, 200, 200])
    receiver.answer = lambda r: (next(answers), {}, 0.0)
    endpoint_id, secret = _create(dash, receiver.url)
    issue(api, google=False)
    page = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))
    assert "pass.created" in page and "HTTP 500" in page and "http_status" in page
    assert "next attempt" in page
    delivery_id = re.search(r"deliveries/(whdl_[0-9a-z]+)/resend", page).group(1)
    response = dash.post(f"/dashboard/test/webhooks/{endpoint_id}/deliveries/{delivery_id}"
                         "/resend", htmx=True, header=True)
    assert response.status_code == 200
    assert text(response).lstrip().startswith('<div id="webhook-panel">')
    body = text(dash.get(f"/dashboard/test/webhooks/{endpoint_id}"))  # once it ran
    assert "HTTP 200" in body and "succeeded" in body
    first, second = receiver.wait_for(2)
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    Webhook(secret).verify(second.body, second.headers)


def test_rotate_shows_the_new_secret_once_and_both_sign(dash: Dash, api: Api,
                                                        receiver: Receiver) -> None:
    endpoint_id, old = _create(dash, receiver.url)
    response = dash.post(f"/dashboard/test/webhooks/{endpoint_id}/rotate", htmx=True,
                         header=True)
    assert response.status_code == 200
    new = _SECRET.search(text(response)).group(1)
    assert new != old
    issue(api, google=False)
    [request] = receiver.wait_for(1)
    Webhook(old).verify(request.body, request.headers)
    Webhook(new).verify(request.body, request.headers)


def test_disable_enable_and_delete(dash: Dash, api: Api, receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    path = f"/dashboard/test/webhooks/{endpoint_id}"
    body = text(dash.post(path + "/status", {"status": "disabled"}, htmx=True, header=True))
    assert "Disabled" in body and "Enable" in body
    issue(api)
    assert receiver.requests == []
    body = text(dash.post(path + "/status", {"status": "enabled"}, htmx=True, header=True))
    assert "Enabled" in body
    response = dash.post(path + "/delete", htmx=True, header=True)
    assert response.headers["HX-Redirect"].endswith("/dashboard/test/webhooks")
    assert dash.get(path).status_code == 404


def test_state_changes_need_the_csrf_token(dash: Dash, receiver: Receiver) -> None:
    response = dash.post("/dashboard/test/webhooks", {"url": receiver.url}, csrf=False)
    assert response.status_code == 400
    assert receiver.url not in text(dash.get("/dashboard/test/webhooks"))


def test_another_organization_cannot_see_or_touch_it(dash: Dash, other_dash: Dash,
                                                     receiver: Receiver) -> None:
    endpoint_id, _ = _create(dash, receiver.url)
    path = f"/dashboard/test/webhooks/{endpoint_id}"
    assert other_dash.get(path).status_code == 404
    assert other_dash.post(path + "/rotate", htmx=True, header=True).status_code == 404
    assert other_dash.post(path + "/delete", htmx=True, header=True).status_code == 404
    assert receiver.url not in text(other_dash.get("/dashboard/test/webhooks"))
    assert dash.get(path).status_code == 200
