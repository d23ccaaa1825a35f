"""The httpx transport under every call: an Idempotency-Key per write, retries, typed errors.

A write (POST, PUT, PATCH, DELETE) without an `Idempotency-Key` gets a new UUID once, before
the first attempt, and every retry of that call sends the same key: the server answers a
retry with the first attempt's stored answer, so a lost answer never makes a second pass.
Retried: network errors, 429, 503, and a 409 with Retry-After (the same key still running),
after `Retry-After` seconds when the server says, else an exponential backoff with jitter. An
answer whose Retry-After is longer than `max_delay` is not retried: its error is raised at once
(a retry sooner than the server asked would only be refused again).
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable

import httpx

from pass_service_client.errors import from_answer

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RETRIED = frozenset({429, 503})


class RetryingTransport(httpx.BaseTransport):
    """Wraps `inner` (default: httpx's own) with the rules above."""

    def __init__(self, inner: httpx.BaseTransport | None = None, *, max_retries: int = 3,
                 base_delay: float = 0.5, max_delay: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.inner = inner or httpx.HTTPTransport()
        self.max_retries, self.base_delay, self.max_delay = max_retries, base_delay, max_delay
        self.sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method in WRITES and "Idempotency-Key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if attempt >= self.max_retries:
                    raise
                delay = self.backoff(attempt)
            else:
                wait = self.retry_after(response)
                if (not self._retried(response) or attempt >= self.max_retries
                        or (wait or 0) > self.max_delay):  # never sooner than it says
                    return self._checked(response)
                delay = self.backoff(attempt) if wait is None else wait
                response.close()
            self.sleep(min(delay, self.max_delay))
            attempt += 1

    def close(self) -> None:
        self.inner.close()

    def backoff(self, attempt: int) -> float:
        """base_delay * 2^attempt, with up to a quarter of it as random jitter."""
        delay: float = self.base_delay * 2 ** attempt
        return delay + random.uniform(0, delay / 4)

    @staticmethod
    def retry_after(response: httpx.Response) -> float | None:
        value = response.headers.get("Retry-After", "")
        return float(value) if value.isdigit() else None

    @staticmethod
    def _retried(response: httpx.Response) -> bool:
        return response.status_code in RETRIED or (
            response.status_code == 409 and "Retry-After" in response.headers)

    @staticmethod
    def _checked(response: httpx.Response) -> httpx.Response:
        if response.status_code < 400:
            return response
        try:
            content = response.read()
        finally:
            response.close()
        raise from_answer(response.status_code, content, response.headers.get("Request-Id"))
