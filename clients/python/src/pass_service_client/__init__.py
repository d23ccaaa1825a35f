"""Python client for the Pass Issuing Service /v1 API.

The operations and models are generated (`pass_service_client.openapi`, from the served
OpenAPI document: `make clients`); this package adds what a generator cannot: `connect`
(an Idempotency-Key per write, retries, typed errors), `paginate`, `ok` and `verify_webhook`.
"""

from __future__ import annotations

from typing import TypeVar

import httpx

from pass_service_client.errors import (
    ApiServerError,
    AuthenticationError,
    ConflictError,
    IdempotencyError,
    InvalidRequestError,
    NotFoundError,
    PassServiceError,
    PermissionDeniedError,
    RateLimitError,
)
from pass_service_client.openapi.client import AuthenticatedClient
from pass_service_client.openapi.models.error import Error
from pass_service_client.pages import paginate
from pass_service_client.transport import AsyncRetryingTransport, RetryingTransport
from pass_service_client.webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "ApiServerError", "AsyncRetryingTransport", "AuthenticationError", "ConflictError",
    "IdempotencyError", "InvalidRequestError", "NotFoundError", "PassServiceClient",
    "PassServiceError", "PermissionDeniedError", "RateLimitError", "RetryingTransport",
    "WebhookVerificationError", "connect", "ok", "paginate", "verify_webhook",
]

T = TypeVar("T")


class PassServiceClient(AuthenticatedClient):
    """The generated client, whose repr never shows the API key (the generated one does)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"PassServiceClient(base_url={self._base_url!r})"


def connect(api_key: str, base_url: str, *, max_retries: int = 3, base_delay: float = 0.5,
            max_delay: float = 30.0, timeout: float = 30.0) -> PassServiceClient:
    """A client for the generated operations (`client=`): its calls, `sync` and `asyncio`
    alike, retry, add an Idempotency-Key to each write, and raise `PassServiceError`s."""
    base_url = base_url.rstrip("/")
    sync = RetryingTransport(max_retries=max_retries, base_delay=base_delay, max_delay=max_delay)
    client = PassServiceClient(base_url=base_url, token=api_key,
                               timeout=httpx.Timeout(timeout), raise_on_unexpected_status=True,
                               httpx_args={"transport": sync})
    # The generated client would hand the synchronous transport to its async client too.
    return client.set_async_httpx_client(httpx.AsyncClient(
        base_url=base_url, headers={"Authorization": f"Bearer {api_key}"},
        timeout=httpx.Timeout(timeout), transport=AsyncRetryingTransport(
            max_retries=max_retries, base_delay=base_delay, max_delay=max_delay)))


def ok(answer: T | Error | None) -> T:
    """A generated `sync` call's answer, typed as its success (errors were raised already)."""
    if answer is None or isinstance(answer, Error):
        raise TypeError(f"not a success answer: {answer!r}")
    return answer
