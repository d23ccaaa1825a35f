"""The Google Wallet REST API through google-auth: service-account credentials with the
`wallet_object.issuer` scope, an `AuthorizedSession`, tokens cached per issuer.

    GoogleWalletError      status, reason, message
     `transient`           429, 5xx, or no answer (the caller may retry later)

Calls back off and retry on 429 and 5xx (AuthorizedSession retries only 401); `upsert`
inserts and, on 409 (already exists), patches.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests
from google.auth import exceptions as auth_exceptions
from google.auth.transport.requests import AuthorizedSession, Request
from google.oauth2 import service_account

SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer"
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"  # noqa: S105 (a URL)
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_IAM_LOOKUPS = "https://iamcredentials.googleapis.com/"


class GoogleWalletError(Exception):
    """Google answered with an error, or did not answer (`status` 0)."""

    def __init__(self, status: int, reason: str, message: str):
        super().__init__(f"{status} {reason}: {message}")
        self.status, self.reason, self.message = status, reason, message

    @property
    def transient(self) -> bool:
        """Whether trying again later may succeed."""
        return self.status == 0 or self.status in RETRY_STATUSES


@dataclass(frozen=True)
class Settings:
    """Where Google is and how patient to be."""

    api_url: str
    token_uri: str = GOOGLE_TOKEN_URI
    timeout: float = 15.0
    retries: int = 3
    backoff: float = 0.5


class _NoLookup(requests.adapters.HTTPAdapter):
    """Answers google-auth's regional-access-boundary lookup with 404 without a network
    call (used when the token endpoint is not Google's: an offline or test installation)."""

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
             ) -> requests.Response:
        response = requests.Response()
        response.status_code, response.request = 404, request
        response.url = request.url or ""  # a prepared request always has its URL
        response._content = b"{}"
        return response


class WalletClient:
    """One issuer's calls to the Wallet API."""

    def __init__(self, credentials: service_account.Credentials, settings: Settings,
                 sleep: Callable[[float], None] = time.sleep):
        self.credentials, self.settings, self._sleep = credentials, settings, sleep
        self._local = threading.local()

    def _session(self) -> AuthorizedSession:
        session = getattr(self._local, "session", None)
        if session is None:  # requests sessions are not shared between threads
            auth = requests.Session()
            if self.settings.token_uri != GOOGLE_TOKEN_URI:
                auth.mount(_IAM_LOOKUPS, _NoLookup())
            session = AuthorizedSession(self.credentials, auth_request=Request(auth),
                                        refresh_timeout=self.settings.timeout)
            self._local.session = session
        return session

    def call(self, method: str, path: str, body: dict[str, Any] | None = None
             ) -> dict[str, Any]:
        """One API call with backoff on 429 and 5xx.

        :raises GoogleWalletError: an error answer, or none after the retries.
        """
        url = self.settings.api_url.rstrip("/") + path
        for attempt in range(self.settings.retries + 1):
            try:
                response = self._session().request(method, url, json=body,
                                                   timeout=self.settings.timeout)
            except auth_exceptions.RefreshError as exc:
                raise GoogleWalletError(401, "token_refused", _short(exc)) from None
            except (requests.RequestException, auth_exceptions.TransportError) as exc:
                error = GoogleWalletError(0, "unreachable", type(exc).__name__)
            else:
                if response.status_code < 400:
                    return response.json() if response.content else {}
                error = _error(response)
            if not error.transient or attempt == self.settings.retries:
                raise error
            self._sleep(self.settings.backoff * 2 ** attempt * (1 + random.random() / 4))
        raise AssertionError("unreachable")  # pragma: no cover

    def get(self, kind: str, resource_id: str) -> dict[str, Any]:
        return self.call("GET", f"/{kind}/{resource_id}")

    def insert(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.call("POST", f"/{kind}", body)

    def patch(self, kind: str, resource_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.call("PATCH", f"/{kind}/{resource_id}", body)

    def add_message(self, kind: str, resource_id: str, message: dict[str, Any]
                    ) -> dict[str, Any]:
        return self.call("POST", f"/{kind}/{resource_id}/addMessage", {"message": message})

    def upsert(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """Insert; if it exists already (409), patch it to this body."""
        try:
            return self.insert(kind, body)
        except GoogleWalletError as exc:
            if exc.status != 409:
                raise
        return self.patch(kind, body["id"], body)


def _error(response: requests.Response) -> GoogleWalletError:
    reason, message = "error", response.reason or ""
    try:
        error = response.json().get("error")
    except ValueError:
        error = None
    if isinstance(error, dict):
        message = str(error.get("message") or message)
        errors = error.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            reason = str(errors[0].get("reason") or reason)
        elif isinstance(error.get("status"), str):
            reason = error["status"]
    return GoogleWalletError(response.status_code, reason, message[:300])


def _short(exc: Exception) -> str:
    return str(exc.args[0] if exc.args else exc)[:300]


_clients: dict[tuple[str, ...], WalletClient] = {}
_lock = threading.Lock()


def client_for(info: dict[str, Any], settings: Settings) -> WalletClient:
    """The (cached) client of a service account: its token is reused until it expires.

    The configured token URI is used whatever the key file says, so an uploaded key cannot
    send our signed assertions elsewhere.
    """
    key = (info["client_email"], info["private_key_id"], settings.api_url, settings.token_uri,
           str(settings.retries), str(settings.backoff), str(settings.timeout))
    with _lock:
        client = _clients.get(key)
        if client is None:
            credentials = service_account.Credentials.from_service_account_info(
                {**info, "token_uri": settings.token_uri}, scopes=[SCOPE])
            client = WalletClient(credentials, settings)
            _clients[key] = client
        return client
