"""The attack's HTTP: one request a connection (from any loopback address), the dashboard as a
signed-in browser, and the check of the documented error shape."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    seconds: float

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def error_code(self) -> str:
        body = self.json()
        error = body.get("error") if isinstance(body, dict) else None
        return str(error.get("code", "")) if isinstance(error, dict) else ""

    def shape_problem(self, validator: Any) -> str | None:
        """Why this is not an error answer in the documented shape, or None."""
        return error_shape_problem(self.headers.get("Content-Type", ""), self.body,
                                   self.headers.get("Request-Id", ""), validator)


def call(port: int, method: str, path: str, *, key: str | None = None, body: Any = None,
         data: bytes | Iterable[bytes] | None = None, headers: dict[str, str] | None = None,
         idem: str | None = None, source: str = "127.0.0.1", timeout: float = 120) -> Answer:
    """One request on a new connection. A write gets a fresh Idempotency-Key unless `idem`
    names one; `source` is the client address (any of 127.0.0.0/8: per-IP limits)."""
    sent = dict(headers or {})
    if key:
        sent["Authorization"] = f"Bearer {key}"
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    if method != "GET":
        sent.setdefault("Idempotency-Key", idem or str(uuid.uuid4()))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    started = time.perf_counter()
    try:
        # The server may answer before it has read everything: then read that answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            conn.request(method, path, body=data, headers=sent,
                         encode_chunked=data is not None and not isinstance(data, bytes))
        response = conn.getresponse()
        payload = response.read()
    finally:
        conn.close()
    return Answer(response.status, response.headers, payload, time.perf_counter() - started)


class Dashboard:
    """A browser on the dashboard: signed in, it GETs and POSTs forms with its CSRF token."""

    def __init__(self, port: int, email: str, password: str) -> None:
        import requests

        self.base = f"http://127.0.0.1:{port}"
        self.http = requests.Session()
        self.token = self._token("/dashboard/login")
        self.post("/dashboard/login", {"email": email, "password": password})
        self.token = self._token("/dashboard/test/keys")  # a new session has a new token

    def _token(self, path: str) -> str:
        match = CSRF.search(self.get(path).text)
        return match.group(1) if match else ""

    def get(self, path: str) -> Any:
        return self.http.get(self.base + path, allow_redirects=False, timeout=60)

    def post(self, path: str, form: dict[str, str] | None = None) -> Any:
        return self.http.post(self.base + path, data={**(form or {}), "csrf_token": self.token},
                              allow_redirects=False, timeout=60)


def error_shape_problem(content_type: str, body: bytes, request_id: str,
                        validator: Any) -> str | None:
    """Why an error answer is not in the documented shape, or None when it is."""
    if not content_type.startswith("application/json"):
        return f"content type {content_type!r}"
    try:
        document = json.loads(body)
    except ValueError:
        return "not JSON"
    problems = [e.message for e in validator.iter_errors(document)]
    if problems:
        return "; ".join(problems)[:200]
    if document["requestId"] != request_id:
        return "requestId differs from the Request-Id header"
    return None


def error_validator(port: int) -> Any:
    """A validator of the Error component of the document the server serves."""
    from jsonschema import Draft202012Validator

    document = call(port, "GET", "/v1/openapi.json").json()
    return Draft202012Validator({"$ref": "#/components/schemas/Error",
                                 "components": document["components"]})
