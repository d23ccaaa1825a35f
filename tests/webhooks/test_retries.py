"""Failures and retries: the schedule (time injected), timeouts, redirects, giving up,
auto-disable after 3 days, at-least-once with the same webhook-id."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask

from tests.conftest import Api, assert_error
from tests.support.receiver import Receiver
from tests.webhooks.conftest import Clock, endpoint, issue, sweep
from webapp import clock

SCHEDULE = [timedelta(seconds=5), timedelta(minutes=5), timedelta(minutes=30),
            timedelta(hours=2), timedelta(hours=5), timedelta(hours=10), timedelta(hours=10)]


def _deliveries(api: Api, hook: dict) -> list[dict]:
    return api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()["data"]


def test_retries_follow_the_schedule_then_fail(app: Flask, api: Api, receiver: Receiver,
                                               frozen: Clock) -> None:
    receiver.answer = lambda r: (500, {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.created"])
    start = frozen.now
    issue(api)
    receiver.wait_for(1)
    for n, gap in enumerate(SCHEDULE, start=2):
        frozen.advance(seconds=gap.total_seconds() - 1)
        assert sweep(app) == 0, "a retry ran before its time"
        frozen.advance(seconds=1)
        assert sweep(app) == 1
        receiver.wait_for(n)
    [delivery] = _deliveries(api, hook)
    assert delivery["status"] == "failed" and delivery["nextAttemptAt"] is None
    attempts = delivery["attempts"]
    assert len(attempts) == 8 == len(receiver.requests)
    assert {a["responseStatus"] for a in attempts} == {500}
    assert {a["error"]["code"] for a in attempts} == {"http_status"}
    expected, at = [], start
    for gap in [timedelta(0), *SCHEDULE]:
        at += gap
        expected.append(at)
    assert [a["attemptedAt"] for a in attempts] == [clock.isoformat(t) for t in expected]
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1
    frozen.advance(days=2)
    assert sweep(app) == 0


def test_a_failure_then_success_delivers_the_same_id_twice(app: Flask, api: Api,
                                                           receiver: Receiver,
                                                           frozen: Clock) -> None:
    answers = iter([503, 200])
    receiver.answer = lambda r: (next(answers), {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api)
    receiver.wait_for(1)
    [delivery] = _deliveries(api, hook)
    assert delivery["status"] == "pending"
    assert delivery["nextAttemptAt"] == clock.isoformat(frozen.now + timedelta(seconds=5))
    frozen.advance(seconds=5)
    sweep(app)
    first, second = receiver.wait_for(2)
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    [delivery] = _deliveries(api, hook)
    assert delivery["status"] == "succeeded"
    assert [a["responseStatus"] for a in delivery["attempts"]] == [503, 200]


def test_a_receiver_that_times_out_counts_as_failed(app: Flask, api: Api, receiver: Receiver
                                                    ) -> None:
    app.config["WEBHOOK_TIMEOUT_SECONDS"] = 0.3
    receiver.answer = lambda r: (200, {}, 1.0)
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api)
    [delivery] = _deliveries(api, hook)
    assert delivery["status"] == "pending"
    [attempt] = delivery["attempts"]
    assert attempt["error"]["code"] == "timeout" and attempt["responseStatus"] is None


def test_the_default_timeout_is_ten_seconds() -> None:
    from webapp.config import DEFAULTS

    assert DEFAULTS["WEBHOOK_TIMEOUT_SECONDS"] == 10


def test_a_redirect_counts_as_failed_and_is_not_followed(api: Api, receiver: Receiver) -> None:
    receiver.answer = lambda r: ((302, {"Location": "/elsewhere"}, 0.0) if r.path == "/hooks"
                                 else (200, {}, 0.0))
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api)
    [request] = receiver.wait_for(1)
    assert request.path == "/hooks"
    [delivery] = _deliveries(api, hook)
    [attempt] = delivery["attempts"]
    assert attempt["responseStatus"] == 302 and attempt["error"]["code"] == "redirect"
    assert delivery["status"] == "pending" and len(receiver.requests) == 1


def test_an_endpoint_failing_for_three_days_is_disabled(app: Flask, api: Api,
                                                        receiver: Receiver,
                                                        frozen: Clock) -> None:
    receiver.answer = lambda r: (500, {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.created", "pass.updated"])
    created = issue(api)
    for hours in (30, 30, 11):  # new events keep failing: 71 hours of failure
        frozen.advance(hours=hours)
        api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": str(hours)}})
    assert api.get(f"/v1/webhook-endpoints/{hook['id']}").get_json()["status"] == "enabled"
    frozen.advance(hours=1)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "last"}})
    body = api.get(f"/v1/webhook-endpoints/{hook['id']}").get_json()
    assert body["status"] == "disabled" and body["disabledReason"] == "failing"
    deliveries = _deliveries(api, hook)
    assert {d["status"] for d in deliveries} == {"failed"}
    assert {d["failureCode"] for d in deliveries} == {"endpoint_disabled"}
    count = len(receiver.requests)
    frozen.advance(days=1)
    sweep(app)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "after"}})
    assert len(receiver.requests) == count


def test_a_success_resets_the_failing_streak(app: Flask, api: Api, receiver: Receiver,
                                             frozen: Clock) -> None:
    status = {"code": 500}
    receiver.answer = lambda r: (status["code"], {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.updated"])
    created = issue(api)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "1"}})
    frozen.advance(hours=48)
    status["code"] = 200
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "2"}})
    status["code"] = 500
    frozen.advance(hours=48)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "3"}})
    assert api.get(f"/v1/webhook-endpoints/{hook['id']}").get_json()["status"] == "enabled"


def test_resend_on_a_disabled_endpoint_is_409_and_others_404(api: Api, other_api: Api,
                                                             receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api)
    [delivery] = _deliveries(api, hook)
    path = f"/v1/webhook-endpoints/{hook['id']}/deliveries/{delivery['id']}"
    assert_error(other_api.post(path + "/resend"), 404, "not_found_error")
    assert_error(other_api.get(path), 404, "not_found_error")
    assert_error(api.post(f"/v1/webhook-endpoints/{hook['id']}/deliveries/whdl_nope/resend"),
                 404, "not_found_error")
    assert_error(api.post(path + "/resend", {"now": True}), 400, "invalid_request_error",
                 "parameter_unknown")
    api.patch(f"/v1/webhook-endpoints/{hook['id']}", {"status": "disabled"})
    assert_error(api.post(path + "/resend"), 409, "conflict_error", "endpoint_disabled")


def test_disabling_gives_up_pending_retries(app: Flask, api: Api, receiver: Receiver,
                                            frozen: Clock) -> None:
    receiver.answer = lambda r: (500, {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api)
    assert _deliveries(api, hook)[0]["status"] == "pending"
    api.patch(f"/v1/webhook-endpoints/{hook['id']}", {"status": "disabled"})
    [delivery] = _deliveries(api, hook)
    assert delivery["status"] == "failed" and delivery["failureCode"] == "endpoint_disabled"
    frozen.advance(minutes=10)
    assert sweep(app) == 0
    assert len(receiver.requests) == 1
