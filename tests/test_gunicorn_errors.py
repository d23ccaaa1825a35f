"""What gunicorn answers itself (gunicorn.conf.py, issue 22): requests it refuses get the
API's JSON error under /v1 or when their path could not be read, the plain error page for
people; its logs say no token; a worker past its timeout closes the connection unanswered."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.support import gunicorn
from tests.support.gunicorn import raw_request
from webapp.security_headers import PUBLIC_HEADERS

TOKEN = "tok_secret_0123456789"


@pytest.fixture
def served(app: Flask, database_url: str, tmp_path: Path) -> Iterator[gunicorn.Served]:
    with gunicorn.serving(app, database_url, tmp_path, "--access-logfile", "/dev/stderr"
                          ) as served:
        yield served


def _json_error(answer: tuple[int, dict[str, str], bytes], status: int, code: str
                ) -> dict[str, Any]:
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close"
    assert headers["cache-control"] == "no-store"
    for name, value in PUBLIC_HEADERS.items():
        assert headers[name.lower()] == value
    payload = json.loads(body)
    assert set(payload) == {"error", "requestId"}
    assert payload["requestId"] == headers["request-id"]
    assert re.fullmatch(r"req_[0-9a-f]{32}", payload["requestId"])
    assert payload["error"]["type"] == "invalid_request_error"
    assert payload["error"]["code"] == code
    assert payload["error"]["message"]
    return payload


def _logged(served: gunicorn.Served, request_id: str) -> str:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        found = [line for line in served.log if request_id in line]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"{request_id} is not in the log")


def test_the_configuration_is_read(served: gunicorn.Served) -> None:
    assert any("Using worker: Worker" in line for line in served.log)


@pytest.mark.parametrize("path", ["/v1/passes", f"/d/{TOKEN}"])
def test_a_request_line_over_4094_bytes_is_414_json(served: gunicorn.Served, path: str) -> None:
    # gunicorn stops reading before the path ends: it cannot tell a person's from the API's.
    line = f"GET {path}?q={'a' * 5000} HTTP/1.1\r\nHost: t\r\n\r\n".encode()
    payload = _json_error(raw_request(served.port, line), 414, "request_line_too_long")
    assert payload["error"]["message"] == "The request line is longer than 4094 bytes."
    assert TOKEN not in _logged(served, payload["requestId"])


def test_a_request_line_of_4094_bytes_is_served(served: gunicorn.Served) -> None:
    start = "GET /v1/me?q="
    line = start + "a" * (4094 - len(start) - len(" HTTP/1.1")) + " HTTP/1.1"
    assert len(line) == 4094
    status, _headers, _body = raw_request(served.port, f"{line}\r\nHost: t\r\n\r\n".encode())
    assert status == 401


@pytest.mark.parametrize("headers", [
    "X-Big: " + "a" * 9000 + "\r\n",
    "".join(f"X-Many-{n}: 1\r\n" for n in range(101)),
])
def test_header_fields_too_large_or_too_many_are_431_json(served: gunicorn.Served,
                                                          headers: str) -> None:
    request = f"GET /v1/me HTTP/1.1\r\nHost: t\r\n{headers}\r\n".encode()
    _json_error(raw_request(served.port, request), 431, "header_fields_too_large")


def test_a_request_that_is_not_http_is_400_json(served: gunicorn.Served) -> None:
    # No HTTP version: gunicorn's message quotes the whole line, token and all.
    payload = _json_error(raw_request(served.port, f"GET /d/{TOKEN}?q=ada@example.test\r\n"
                                                   f"\r\n".encode()), 400, "malformed_request")
    line = _logged(served, payload["requestId"])
    assert "Invalid request" in line and "status=400" in line
    assert "/d/[token]?q=[redacted]" in line
    assert TOKEN not in line and "ada@" not in line


_BAD_CHUNKS = ("Host: t\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
               "zz\r\nabc\r\n0\r\n\r\n")


def test_a_malformed_body_under_v1_is_400_json(served: gunicorn.Served) -> None:
    request = f"POST /v1/templates HTTP/1.1\r\n{_BAD_CHUNKS}".encode()
    _json_error(raw_request(served.port, request), 400, "malformed_request")


def test_a_person_gets_the_plain_error_page(served: gunicorn.Served) -> None:
    request = f"POST /dashboard/login HTTP/1.1\r\n{_BAD_CHUNKS}".encode()
    status, headers, body = raw_request(served.port, request)
    assert status == 400
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-security-policy"] == PUBLIC_HEADERS["Content-Security-Policy"]
    assert headers["x-frame-options"] == "DENY"
    html = body.decode()
    assert "<h1>400 Bad Request</h1>" in html
    assert "/static/holder/holder.css" in html and "style=" not in html
    assert headers["request-id"] in _logged(served, headers["request-id"])


def test_the_access_log_says_no_token_or_searched_email(served: gunicorn.Served) -> None:
    request = (f"GET /d/{TOKEN}?q=ada@example.test HTTP/1.1\r\nHost: t\r\n"
               f"Referer: http://t/dashboard/test/passes?q=ada@example.test\r\n\r\n").encode()
    status, _headers, _body = raw_request(served.port, request)
    assert status == 404
    line = _logged(served, '"GET /d/[token]?q=[redacted] HTTP/1.1" 404')
    assert '"http://t/dashboard/test/passes?q=[redacted]"' in line
    assert not [entry for entry in served.log if TOKEN in entry or "ada@example" in entry]


@pytest.mark.parametrize(("path", "api"), [("/v1/templates", True),
                                           ("/dashboard/login", False)])
def test_a_request_past_the_timeout_is_503(app: Flask, database_url: str, tmp_path: Path,
                                           org: dict, path: str, api: bool) -> None:
    """What a client sees when a request outlives `timeout` (here one whose body never
    arrives): the worker is stopped and answers 503 as it exits, in the door's shape."""
    with gunicorn.serving(app, database_url, tmp_path, "--timeout", "2") as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: t\r\n"
                         f"Authorization: Bearer {org['keys']['test']}\r\n"
                         f"Idempotency-Key: stalled-1\r\nContent-Type: application/json\r\n"
                         f"Content-Length: 1000\r\n\r\n{{\"name\": ".encode())
            started = time.monotonic()
            received = bytearray()
            while chunk := sock.recv(65536):
                received += chunk
            assert 1 < time.monotonic() - started < 25
        status_line, _, rest = bytes(received).partition(b"\r\n")
        assert status_line == b"HTTP/1.1 503 Service Unavailable"
        assert b"\r\nRetry-After: 5\r\n" in rest
        body = rest.partition(b"\r\n\r\n")[2]
        if api:
            error = json.loads(body)["error"]
            assert error == {"type": "api_error", "code": "service_unavailable",
                             "message": "The service is temporarily unavailable. Retry shortly."}
        else:
            assert b"<h1>503 Service Unavailable</h1>" in body
        assert "(pid:" in _logged(served, "WORKER TIMEOUT")
