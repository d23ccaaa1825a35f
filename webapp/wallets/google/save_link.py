"""The "Add to Google Wallet" link: a reference JWT (`{id, classId}` of a pre-inserted
object) signed RS256 by the issuer's service account with `google.auth.jwt.encode`.

No `exp`: the link is minted on each visit to our page, which enforces its own expiry.
"""

from __future__ import annotations

import threading
import time
from typing import Any
from urllib.parse import urlsplit

from google.auth import crypt
from google.auth import jwt as google_jwt

MAX_LENGTH = 1800  # the safe length of an encoded JWT in a web link (google.md section 3.2)
_signers: dict[tuple[str, str], crypt.RSASigner] = {}
_lock = threading.Lock()


class SaveLinkTooLong(ValueError):
    """The encoded JWT is over MAX_LENGTH characters."""


def origin(base_url: str) -> str:
    """`scheme://host[:port]` of a base URL."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}"


def _signer(info: dict[str, Any]) -> crypt.RSASigner:
    key = (info["client_email"], info["private_key_id"])
    with _lock:
        signer = _signers.get(key)
        if signer is None:
            signer = crypt.RSASigner.from_service_account_info(info)
            _signers[key] = signer
        return signer


def token(info: dict[str, Any], object_kind: str, obj_id: str, cls_id: str,
          origins: list[str], *, now: float | None = None) -> str:
    """The signed save JWT for one object (`object_kind` like `genericObject`).

    :raises SaveLinkTooLong: over 1,800 characters (never with a reference payload).
    """
    claims = {
        "iss": info["client_email"], "aud": "google", "typ": "savetowallet",
        "iat": int(time.time() if now is None else now), "origins": origins,
        "payload": {f"{object_kind}s": [{"id": obj_id, "classId": cls_id}]},
    }
    encoded = google_jwt.encode(_signer(info), claims).decode("ascii")
    if len(encoded) > MAX_LENGTH:
        raise SaveLinkTooLong(f"save JWT is {len(encoded)} characters")
    return encoded


def url(save_url: str, encoded: str) -> str:
    """`{GOOGLE_WALLET_SAVE_URL}<jwt>`."""
    return save_url + encoded
