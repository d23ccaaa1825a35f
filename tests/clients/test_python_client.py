"""The Python client (clients/python) against the live service: the issue's whole round, a
retried POST that makes one pass, typed errors, cursor pages, a verified webhook."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from pass_service_client import (
    ApiServerError,
    AuthenticationError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    RetryingTransport,
    WebhookVerificationError,
    connect,
    ok,
    paginate,
    verify_webhook,
)
from pass_service_client.openapi.api.assets import upload_asset
from pass_service_client.openapi.api.passes import (
    get_pass,
    issue_pass,
    list_passes,
    update_pass,
    void_pass,
)
from pass_service_client.openapi.api.templates import create_template
from pass_service_client.openapi.api.webhooks import create_webhook_endpoint
from pass_service_client.openapi.client import AuthenticatedClient
from pass_service_client.openapi.models import (
    AssetCreate,
    EndpointCreate,
    PassCreate,
    PassUpdateBody,
    TemplateCreate,
)

from tests.api.factories import template_body
from tests.clients.live import Live

PASSES = "/v1/passes"


@pytest.fixture
def client(live: Live) -> Iterator[AuthenticatedClient]:
    with connect(live.key, live.base_url, base_delay=0.01) as opened:
        yield opened


def _template(client: AuthenticatedClient, **changes: Any) -> str:
    body = TemplateCreate.from_dict(template_body(**changes))
    return ok(create_template.sync(client=client, body=body)).id


def _issue(client: AuthenticatedClient, template_id: str, member: str = "Ada") -> Any:
    body = PassCreate.from_dict({"templateId": template_id, "fieldValues": {"member": member}})
    return ok(issue_pass.sync(client=client, body=body))


def test_upload_create_issue_list_update_void(live: Live, client: AuthenticatedClient,
                                              png: Any) -> None:
    asset = ok(upload_asset.sync(client=client, body=AssetCreate.from_dict(
        {"slot": "icon", "data": png()})))
    assert asset.id.startswith("asset_") and asset.width == 64
    template_id = _template(client, images={"icon": asset.id})
    issued = [_issue(client, template_id, f"Member {n}") for n in range(5)]
    assert issued[0].status == "active" and issued[0].template_id == template_id
    before = len(live.faults.seen)
    listed = list(paginate(list_passes.sync, client=client, limit=2, template_id=template_id))
    assert [p.id for p in listed] == [p.id for p in reversed(issued)]  # newest first
    assert len(live.faults.seen) - before == 3  # pages of 2, 2 and 1
    answer = ok(update_pass.sync(issued[0].id, client=client, body=PassUpdateBody.from_dict(
        {"fieldValues": {"member": "Grace"}, "notificationMode": "notify"})))
    assert answer.pass_.field_values.additional_properties["member"] == "Grace"
    assert answer.update.notification_mode == "notify"
    voided = ok(void_pass.sync(issued[0].id, client=client))
    assert voided.status == "voided" and voided.voided_at is not None
    again = ok(get_pass.sync(issued[0].id, client=client))
    assert again.status == "voided"
    assert live.key not in repr(client) and live.key not in str(client)
    assert live.key not in repr(client.with_headers({"X-Trace": "1"}))
    # Every write carried its own key.
    keys = [s.idempotency_key for s in live.faults.seen if s.method != "GET"]
    assert all(keys) and len(set(keys)) == len(keys)


@pytest.mark.parametrize("kind", ["lost", "dropped"])
def test_a_retried_post_makes_one_pass(live: Live, client: AuthenticatedClient, kind: str) -> None:
    """The first attempt's answer never arrives (503 instead, or the connection closed): the
    retry sends the same Idempotency-Key and gets the stored answer, the same pass."""
    template_id = _template(client)
    live.faults.arm("POST", PASSES, kind)
    item = _issue(client, template_id)
    attempts = live.posts(PASSES)
    assert len(attempts) == 2
    assert attempts[0].idempotency_key == attempts[1].idempotency_key is not None
    listed = list(paginate(list_passes.sync, client=client, template_id=template_id))
    assert [p.id for p in listed] == [item.id]


def test_the_asyncio_calls_retry_and_raise_the_same(live: Live, client: AuthenticatedClient
                                                    ) -> None:
    template_id = _template(client)
    body = PassCreate.from_dict({"templateId": template_id, "fieldValues": {"member": "Ada"}})

    async def round_trip() -> tuple[Any, NotFoundError]:
        async with connect(live.key, live.base_url, base_delay=0.01) as concurrent:
            live.faults.arm("POST", PASSES, "dropped")
            item = ok(await issue_pass.asyncio(client=concurrent, body=body))
            try:
                await get_pass.asyncio("pass_nope", client=concurrent)
            except NotFoundError as error:
                return item, error
            raise AssertionError("no NotFoundError")

    # A thread of its own: a browser test before this one in the same worker leaves
    # Playwright's event loop running in this thread, and asyncio.run refuses that.
    with ThreadPoolExecutor(1) as thread:
        item, missing = thread.submit(asyncio.run, round_trip()).result()
    attempts = live.posts(PASSES)
    assert len(attempts) == 2 and attempts[0].idempotency_key == attempts[1].idempotency_key
    assert [p.id for p in paginate(list_passes.sync, client=client)] == [item.id]
    assert (missing.status, missing.type) == (404, "not_found_error")


def test_429_is_retried_after_retry_after(live: Live, client: AuthenticatedClient) -> None:
    template_id = _template(client)
    live.faults.arm("POST", PASSES, "limited")
    started = time.monotonic()
    _issue(client, template_id)
    assert time.monotonic() - started >= 1  # Retry-After: 1, not the 0.01 s backoff
    assert len(live.posts(PASSES)) == 2


def test_retries_end_in_a_typed_error(live: Live, client: AuthenticatedClient) -> None:
    template_id = _template(client)
    client = connect(live.key, live.base_url, base_delay=0.01, max_retries=2)
    for _ in range(3):
        live.faults.arm("POST", PASSES, "busy")
    with client, pytest.raises(ApiServerError) as caught:
        _issue(client, template_id)
    assert (caught.value.status, caught.value.type) == (503, "api_error")
    assert len({s.idempotency_key for s in live.posts(PASSES)}) == 1
    with connect(live.key, live.base_url) as fresh:
        assert list(paginate(list_passes.sync, client=fresh)) == []


class Counting(httpx.HTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.attempts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.attempts += 1
        return super().handle_request(request)


def test_network_errors_are_retried_then_raised() -> None:
    counting = Counting()
    client = AuthenticatedClient(base_url="http://127.0.0.1:9", token="svc_test_x",
                                 httpx_args={"transport": RetryingTransport(
                                     counting, max_retries=2, base_delay=0.01)})
    with client, pytest.raises(httpx.ConnectError):
        get_pass.sync("pass_1", client=client)
    assert counting.attempts == 3


@pytest.mark.parametrize(("retry_after", "slept", "attempts"), [("2", [2.0], 2), ("9", [], 1)])
def test_retry_after_is_waited_for_or_past_max_delay_raised(
        retry_after: str, slept: list[float], attempts: int) -> None:
    answers = [httpx.Response(429, headers={"Retry-After": retry_after}, json={
        "error": {"type": "rate_limit_error", "message": "slow down"}, "requestId": "req_1"}),
        httpx.Response(200, json={"organizationId": "org_1", "environment": "test"})]
    waits: list[float] = []
    transport = RetryingTransport(httpx.MockTransport(lambda request: answers.pop(0)),
                                  max_delay=5, sleep=waits.append)
    with httpx.Client(transport=transport) as plain:
        if attempts == 1:
            with pytest.raises(RateLimitError) as caught:
                plain.get("http://api.test/v1/me")
            assert (caught.value.status, caught.value.request_id) == (429, "req_1")
        else:
            assert plain.get("http://api.test/v1/me").status_code == 200
    assert waits == slept and len(answers) == 2 - attempts


def test_a_callers_own_key_is_kept_across_retries(live: Live, client: AuthenticatedClient
                                                  ) -> None:
    template_id = _template(client)
    live.faults.arm("POST", PASSES, "lost")
    body = PassCreate.from_dict({"templateId": template_id, "fieldValues": {"member": "Ada"}})
    first = ok(issue_pass.sync(client=client, body=body, idempotency_key="order-42"))
    again = ok(issue_pass.sync(client=client, body=body, idempotency_key="order-42"))
    assert first.id == again.id
    assert [s.idempotency_key for s in live.posts(PASSES)] == ["order-42"] * 3


def test_4xx_answers_are_typed_errors(live: Live, client: AuthenticatedClient) -> None:
    with pytest.raises(NotFoundError) as missing:
        get_pass.sync("pass_nope", client=client)
    assert (missing.value.status, missing.value.type) == (404, "not_found_error")
    assert missing.value.request_id and missing.value.request_id.startswith("req_")
    template_id = _template(client)
    body = PassCreate.from_dict({"templateId": template_id, "fieldValues": {"colour": "red"}})
    with pytest.raises(InvalidRequestError) as refused:
        issue_pass.sync(client=client, body=body)
    error = refused.value
    assert (error.status, error.type, error.param) == (400, "invalid_request_error",
                                                       "fieldValues.colour")
    assert error.code and error.message
    with connect("svc_test_nope", live.base_url) as stranger, \
            pytest.raises(AuthenticationError) as unknown:
        get_pass.sync("pass_1", client=stranger)
    assert (unknown.value.status, unknown.value.code) == (401, "invalid_api_key")


def test_a_delivered_webhook_verifies(live: Live, client: AuthenticatedClient,
                                      receiver: Any) -> None:
    hook = ok(create_webhook_endpoint.sync(client=client, body=EndpointCreate(
        url=receiver.url, enabled_events=["pass.created"])))
    item = _issue(client, _template(client))
    [delivery] = receiver.wait_for(1)
    event = verify_webhook(hook.secret, delivery.body, delivery.headers)
    assert (event["type"], event["data"]["object"]["id"]) == ("pass.created", item.id)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(hook.secret, delivery.body.replace(b"created", b"voided"),
                       delivery.headers)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(hook.secret, delivery.body, delivery.headers, now=time.time() + 600)
