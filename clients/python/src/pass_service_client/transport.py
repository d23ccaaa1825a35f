"""The httpx transports under every call: an Idempotency-Key per write, retries, typed errors.

A write (POST, PUT, PATCH, DELETE) without an `Idempotency-Key` gets a new UUID once, before
the first attempt, and every retry of that call sends the same key: the server answers a
retry with the first attempt's stored answer, so a lost answer never makes a second pass.
Retried: network errors, 429, 503, and a 409 with Retry-After (the same key still running),
after `Retry-After` seconds when the server says, else an exponential backoff with jitter. An
answer whose Retry-After is longer than `max_delay` is not retried: its error is raised at once
(a retry sooner than the server asked would only be refused again). `RetryingTransport` serves
the synchronous calls, `AsyncRetryingTransport` the `asyncio` ones, by the same `Policy`.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable

import httpx

from pass_service_client.errors import PassServiceError, from_answer

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RETRIED = frozenset({429, 503})


class Policy:
    """When to retry and how long to wait first; shared by both transports."""

    def __init__(self, *, max_retries: int = 3, base_delay: float = 0.5,
                 max_delay: float = 30.0) -> None:
        self.max_retries, self.base_delay, self.max_delay = max_retries, base_delay, max_delay

    @staticmethod
    def prepare(request: httpx.Request) -> None:
        """One key per call: set before the first attempt, so every retry sends it."""
        if request.method in WRITES and "Idempotency-Key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())

    def backoff(self, attempt: int) -> float:
        """base_delay * 2^attempt, with up to a quarter of it as random jitter, capped."""
        delay: float = self.base_delay * 2 ** attempt
        return min(delay + random.uniform(0, delay / 4), self.max_delay)

    def wait_after(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying after `response`, or None: no retry."""
        retried = response.status_code in RETRIED or (
            response.status_code == 409 and "Retry-After" in response.headers)
        value = response.headers.get("Retry-After", "")
        asked = float(value) if value.isdigit() else None
        if not retried or attempt >= self.max_retries or (asked or 0) > self.max_delay:
            return None
        return self.backoff(attempt) if asked is None else asked

    @staticmethod
    def error(response: httpx.Response, content: bytes) -> PassServiceError:
        return from_answer(response.status_code, content, response.headers.get("Request-Id"))


class RetryingTransport(httpx.BaseTransport):
    """Wraps `inner` (default: httpx's own) with the rules above."""

    def __init__(self, inner: httpx.BaseTransport | None = None, *, max_retries: int = 3,
                 base_delay: float = 0.5, max_delay: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.inner, self.sleep = inner or httpx.HTTPTransport(), sleep
        self.policy = Policy(max_retries=max_retries, base_delay=base_delay,
                             max_delay=max_delay)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.policy.prepare(request)
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if attempt >= self.policy.max_retries:
                    raise
                delay = self.policy.backoff(attempt)
            else:
                wait = self.policy.wait_after(response, attempt)
                if wait is None:
                    if response.status_code < 400:
                        return response
                    try:
                        raise self.policy.error(response, response.read())
                    finally:
                        response.close()
                response.close()
                delay = wait
            self.sleep(delay)
            attempt += 1

    def close(self) -> None:
        self.inner.close()


class AsyncRetryingTransport(httpx.AsyncBaseTransport):
    """The same for httpx.AsyncClient (the generated `asyncio` calls)."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None, *, max_retries: int = 3,
                 base_delay: float = 0.5, max_delay: float = 30.0,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.inner, self.sleep = inner or httpx.AsyncHTTPTransport(), sleep
        self.policy = Policy(max_retries=max_retries, base_delay=base_delay,
                             max_delay=max_delay)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.policy.prepare(request)
        attempt = 0
        while True:
            try:
                response = await self.inner.handle_async_request(request)
            except httpx.TransportError:
                if attempt >= self.policy.max_retries:
                    raise
                delay = self.policy.backoff(attempt)
            else:
                wait = self.policy.wait_after(response, attempt)
                if wait is None:
                    if response.status_code < 400:
                        return response
                    try:
                        raise self.policy.error(response, await response.aread())
                    finally:
                        await response.aclose()
                await response.aclose()
                delay = wait
            await self.sleep(delay)
            attempt += 1

    async def aclose(self) -> None:
        await self.inner.aclose()
