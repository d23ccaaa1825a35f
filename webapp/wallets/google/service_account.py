"""Google service-account keys: check an uploaded JSON key, and make a demo one."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ISSUER_ID = re.compile(r"^[0-9]{5,25}$")
_REQUIRED = ("type", "project_id", "private_key_id", "private_key", "client_email", "token_uri")


class ServiceAccountError(ValueError):
    """The service-account JSON cannot be used; `code` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def check_issuer_id(issuer_id: str) -> str:
    """A Google Wallet issuer ID: digits.

    :raises ServiceAccountError: anything else.
    """
    if not isinstance(issuer_id, str) or not ISSUER_ID.match(issuer_id.strip()):
        raise ServiceAccountError("invalid_issuer_id",
                                  "The issuer ID is the number shown in the Google Pay & "
                                  "Wallet Console (digits only).")
    return issuer_id.strip()


def parse(data: bytes | str) -> dict[str, Any]:
    """The service-account info after checking its members and its private key.

    :raises ServiceAccountError: not JSON, not a service account, a key that does not load.
    """
    try:
        info = json.loads(data)
    except (ValueError, TypeError):
        raise ServiceAccountError("invalid_service_account",
                                  "The service account file is not JSON.") from None
    if not isinstance(info, dict) or info.get("type") != "service_account":
        raise ServiceAccountError("invalid_service_account",
                                  'This is not a service-account key ("type": '
                                  '"service_account" is missing).')
    missing = [name for name in _REQUIRED if not isinstance(info.get(name), str)
               or not info.get(name)]
    if missing:
        raise ServiceAccountError("invalid_service_account",
                                  f"The service-account key lacks {', '.join(missing)}.")
    try:
        key = serialization.load_pem_private_key(info["private_key"].encode(), None)
    except (ValueError, TypeError):
        raise ServiceAccountError("invalid_service_account",
                                  "The service account's private_key does not load.") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ServiceAccountError("invalid_service_account",
                                  "The service account's key must be RSA.")
    return info


def make_demo(token_uri: str, project: str = "pass-service-demo") -> dict[str, Any]:
    """A service-account key shaped like Google's, for the test environment and tests."""
    key = rsa.generate_private_key(65537, 2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return {
        "type": "service_account",
        "project_id": project,
        "private_key_id": secrets.token_hex(20),
        "private_key": pem,
        "client_email": f"wallet@{project}.iam.gserviceaccount.com",
        "client_id": str(secrets.randbelow(10**20)),
        "token_uri": token_uri,
    }
