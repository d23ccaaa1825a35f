"""Rate limits hold across gunicorn workers without Redis (issue 22): both workers count in
one file, so a key configured for N a second gets N, not N per worker.

gunicorn's access log names the worker (pid) of every answer: each test checks that both
workers answered, or it would prove nothing.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask

from tests.api.test_rate_limits import RATE_LIMITED
from tests.support.gunicorn import serving

PER_SECOND = 5  # RATE_LIMIT_TEST of the server
BURST = 40
LOGIN_LIMIT = 10  # DASHBOARD_LOGIN_LIMIT's default: 10 failures a minute per account
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


class Server:
    """gunicorn with two workers on a free loopback port, and its access log."""

    def __init__(self, port: int, access_log: Path):
        self.port, self.access_log = port, access_log
        self.sent: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                body: str | None = None) -> tuple[int, http.client.HTTPResponse, bytes]:
        with self._lock:
            self.sent[method, path] += 1
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response, response.read()
        finally:
            conn.close()

    def workers_that_answered(self, method: str, path: str, count: int) -> set[str]:
        """The pids that answered the last `count` requests to `method path`."""
        deadline = time.monotonic() + 5
        while True:  # a worker writes its log line just after the answer
            lines = [line.split() for line in self.access_log.read_text().splitlines()]
            pids = [pid for pid, m, p, _status in lines if (m, p) == (method, path)]
            if len(pids) >= self.sent[method, path] or time.monotonic() > deadline:
                return set(pids[-count:])
            time.sleep(0.05)


@pytest.fixture
def two_workers(app: Flask, database_url: str, tmp_path: Path) -> Iterator[Server]:
    """The service behind gunicorn with 2 workers, on the test database, without Redis."""
    access_log = tmp_path / "access.log"
    with serving(app, database_url, tmp_path, "--access-logfile", str(access_log),
                 "--access-logformat", "%(p)s %(m)s %(U)s %(s)s", workers=2,
                 env={"BASE_URL": "http://127.0.0.1", "RATE_LIMIT_TEST": str(PER_SECOND)}
                 ) as served:
        yield Server(served.port, access_log)


def at_once(count: int, call: Any) -> list[Any]:
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda _: call(), range(count)))


def test_a_key_gets_its_allowance_once_across_two_workers(two_workers: Server,
                                                          org: dict[str, Any]) -> None:
    server = two_workers
    live = {"Authorization": f"Bearer {org['keys']['live']}"}
    # Warm both workers up (imports, connections) on another bucket, so the burst is quick.
    assert {s for s, _r, _b in at_once(24, lambda: server.request("GET", "/v1/me", live))} \
        == {200}
    test = {"Authorization": f"Bearer {org['keys']['test']}"}
    for _attempt in range(5):
        started = time.monotonic()
        answers = at_once(BURST, lambda: server.request("GET", "/v1/me", test))
        elapsed = time.monotonic() - started
        if elapsed < 1.0 and len(server.workers_that_answered("GET", "/v1/me", BURST)) == 2:
            break
        # Inconclusive: one worker took every request (429s are quick), or the burst spanned
        # two windows. Again, in a new window.
        time.sleep(1.1)
    else:
        pytest.fail("no burst within one second reached both workers")
    statuses = [status for status, _response, _body in answers]
    assert statuses.count(200) == PER_SECOND, statuses
    assert statuses.count(429) == BURST - PER_SECOND, statuses
    for status, response, body in answers:
        if status == 429:
            assert json.loads(body) == RATE_LIMITED | {
                "requestId": response.getheader("Request-Id")}
            assert response.getheader("Retry-After") == "1"
            assert response.getheader("RateLimit-Limit") == str(PER_SECOND)


def test_sign_in_attempts_are_counted_once_across_two_workers(two_workers: Server) -> None:
    server = two_workers
    status, response, page = server.request("GET", "/dashboard/login")
    assert status == 200
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    match = _TOKEN.search(page.decode())
    assert cookie and match
    form = urlencode({"email": "nobody@limits.test", "password": "not the password",
                      "csrf_token": match.group(1)})
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    attempts = LOGIN_LIMIT + 6
    answers = at_once(attempts, lambda: server.request("POST", "/dashboard/login", headers,
                                                       form))
    statuses = sorted(status for status, _response, _body in answers)
    assert statuses == [401] * LOGIN_LIMIT + [429] * 6
    for status, _response, body in answers:
        if status == 429:
            assert b"Too many failed attempts" in body
    assert len(server.workers_that_answered("POST", "/dashboard/login", attempts)) == 2
