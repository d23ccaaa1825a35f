"""SSRF: deliveries never reach loopback, private or link-local addresses unless allowed,
and connect to the address that was checked (no second DNS lookup)."""

from __future__ import annotations

import ipaddress
import socket
import time

import pytest
from flask import Flask

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue
from webapp.services.webhooks.http import address_allowed


def _attempt(api: Api, hook: dict) -> dict:
    [delivery] = api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()["data"]
    return delivery["attempts"][-1]


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Names under .example.test resolve to what the test says; lookups are counted."""
    answers: dict[str, list[str]] = {}
    real = socket.getaddrinfo
    lookups: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(host, str) and host.endswith(".example.test"):
            lookups.append(host)
            if host not in answers:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))
                    for ip in answers[host]]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    answers["__lookups__"] = lookups  # type: ignore[assignment]
    return answers


def test_loopback_is_refused_unless_allowed(app: Flask, api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url, ["pass.created"])  # created while loopback is allowed
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = False
    issue(api)
    assert receiver.requests == []
    attempt = _attempt(api, hook)
    assert attempt["error"]["code"] == "address_not_allowed"
    assert attempt["responseStatus"] is None


def test_a_name_is_resolved_once_and_the_checked_address_is_used(
        app: Flask, api: Api, receiver: Receiver, fake_dns: dict) -> None:
    fake_dns["hooks.example.test"] = ["127.0.0.1"]
    hook = endpoint(api, f"http://hooks.example.test:{receiver.port}/in", ["pass.created"])
    issue(api)
    [request] = receiver.wait_for(1)
    assert request.headers["host"] == f"hooks.example.test:{receiver.port}"
    assert request.path == "/in"
    assert fake_dns["__lookups__"] == ["hooks.example.test"]
    assert _attempt(api, hook)["responseStatus"] == 200


def test_a_name_resolving_to_a_private_address_is_refused(
        app: Flask, api: Api, receiver: Receiver, fake_dns: dict) -> None:
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = False
    fake_dns["rebind.example.test"] = ["93.184.216.34", "127.0.0.1"]
    hook = endpoint(api, f"http://rebind.example.test:{receiver.port}/", ["pass.created"])
    issue(api)
    assert receiver.requests == []
    assert _attempt(api, hook)["error"]["code"] == "address_not_allowed"


def test_a_name_that_does_not_resolve_fails_the_attempt(api: Api, fake_dns: dict) -> None:
    hook = endpoint(api, "http://nowhere.example.test/", ["pass.created"])
    issue(api)
    attempt = _attempt(api, hook)
    assert attempt["error"]["code"] == "dns_failed"


def test_a_refused_connection_fails_the_attempt(api: Api) -> None:
    from tests.support.services import free_port

    hook = endpoint(api, f"http://127.0.0.1:{free_port()}/", ["pass.created"])
    issue(api)
    assert _attempt(api, hook)["error"]["code"] == "connection_failed"


@pytest.mark.parametrize(("address", "private_ok", "allowed"), [
    ("93.184.216.34", False, True),
    ("2606:2800:220:1::1", False, True),
    ("127.0.0.1", False, False), ("127.0.0.1", True, True),
    ("::1", False, False), ("::1", True, True),
    ("10.0.0.1", False, False), ("192.168.1.1", False, False), ("172.16.0.1", True, True),
    ("100.64.0.1", False, False),
    ("fd00::1", False, False),
    ("::ffff:127.0.0.1", False, False), ("::ffff:93.184.216.34", False, True),
    ("169.254.169.254", True, False), ("fe80::1", True, False),
    ("0.0.0.0", True, False), ("224.0.0.1", True, False), ("240.0.0.1", True, False),
])
def test_address_rules(address: str, private_ok: bool, allowed: bool) -> None:
    assert address_allowed(ipaddress.ip_address(address), private_ok) is allowed


def test_a_kept_alive_connection_never_outlives_its_checked_address(
        receiver: Receiver, fake_dns: dict) -> None:
    from webapp.services.webhooks import http

    url = f"http://reuse.example.test:{receiver.port}/in"

    def post(allow_private: bool = True) -> http.Outcome:
        return http.post(url, b"{}", {}, timeout=2, allow_private=allow_private)

    fake_dns["reuse.example.test"] = ["127.0.0.1"]
    assert post().ok and post().ok  # the second on the kept-alive connection
    assert len(receiver.wait_for(2)) == 2 and len(fake_dns["__lookups__"]) == 2  # checked each time
    fake_dns["reuse.example.test"] = ["127.0.0.2"]  # re-resolved elsewhere: nobody listens
    outcome = post()
    assert outcome.error_code == "connection_failed"  # not sent on the 127.0.0.1 connection
    fake_dns["reuse.example.test"] = ["10.0.0.1"]
    assert post(allow_private=False).error_code == "address_not_allowed"
    fake_dns["reuse.example.test"] = ["127.0.0.1"]
    assert post(allow_private=False).error_code == "address_not_allowed"  # checked, not reused
    time.sleep(0.2)  # a third request, if one were sent, would be recorded by now
    assert len(receiver.requests) == 2
