"""Google Wallet save/delete callbacks: the ECv2SigningOnly signature check (Tink's
PaymentMethodTokenRecipient semantics, google.md section 5.3) on `cryptography`.

An intermediate key, signed by one of Google's root keys, signs the message:
    root key  verifies  LV(sender) || LV(protocol) || LV(signedKey)
    signedKey.keyValue  verifies  LV(sender) || LV(issuer ID) || LV(protocol) || LV(signedMessage)
where LV(s) is a 4-byte little-endian length then the UTF-8 bytes. Keys are base64 DER
SubjectPublicKeyInfo (P-256), signatures base64 DER ECDSA-SHA256.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

PROTOCOL = "ECv2SigningOnly"
SENDER = "GooglePayPasses"
EVENTS = ("save", "del")


class CallbackError(ValueError):
    """The callback is not genuine, not for us, or no longer valid; `code` says which."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Callback:
    """A verified callback's message."""

    class_id: str
    object_id: str
    event_type: str  # save | del
    nonce: str
    expires_ms: int


def lv(*parts: str) -> bytes:
    """The length-value encoding of each part, concatenated."""
    return b"".join(struct.pack("<I", len(b)) + b for b in (p.encode("utf-8") for p in parts))


def parse(body: bytes) -> dict[str, Any]:
    """The callback envelope, with its members checked for shape.

    :raises CallbackError: not JSON, or not an ECv2SigningOnly envelope.
    """
    try:
        envelope = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise CallbackError("malformed", "The body is not JSON.") from None
    key = envelope.get("intermediateSigningKey") if isinstance(envelope, dict) else None
    if not (isinstance(envelope, dict) and isinstance(envelope.get("signature"), str)
            and isinstance(envelope.get("signedMessage"), str) and isinstance(key, dict)
            and isinstance(key.get("signedKey"), str) and isinstance(key.get("signatures"), list)
            and all(isinstance(s, str) for s in key["signatures"])):
        raise CallbackError("malformed", "The body is not a signed callback.")
    if envelope.get("protocolVersion") != PROTOCOL:
        raise CallbackError("malformed", f"protocolVersion must be {PROTOCOL}.")
    return envelope


def claimed_issuer(envelope: dict[str, Any]) -> str:
    """The issuer ID the (still unverified) message names in its classId.

    :raises CallbackError: no classId.
    """
    try:
        message = json.loads(envelope["signedMessage"])
        issuer = str(message["classId"]).split(".", 1)[0]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise CallbackError("malformed", "The signed message has no classId.") from None
    return issuer


def verify(envelope: dict[str, Any], issuer_id: str, root_keys: dict[str, Any], *,
           now_ms: int | None = None, sender: str = SENDER) -> Callback:
    """The message of a genuine, current callback addressed to `issuer_id`.

    :raises CallbackError: bad signature (`bad_signature`), expired key or message
        (`expired`), wrong recipient (`bad_signature`), malformed message (`malformed`).
    """
    now = int(time.time() * 1000) if now_ms is None else now_ms
    roots = [k.get("keyValue") for k in root_keys.get("keys", []) if isinstance(k, dict)
             and k.get("protocolVersion") == PROTOCOL and _int(k.get("keyExpiration")) > now]
    key = envelope["intermediateSigningKey"]
    signed_key = key["signedKey"]
    data = lv(sender, PROTOCOL, signed_key)
    if not any(_verifies(root, sig, data) for root in roots for sig in key["signatures"]):
        raise CallbackError("bad_signature", "The signing key is not signed by a Google root key.")
    try:
        intermediate = json.loads(signed_key)
    except ValueError:
        raise CallbackError("malformed", "The signed key is not JSON.") from None
    if not isinstance(intermediate, dict) or _int(intermediate.get("keyExpiration")) <= now:
        raise CallbackError("expired", "The intermediate signing key has expired.")
    data = lv(sender, issuer_id, PROTOCOL, envelope["signedMessage"])
    if not _verifies(intermediate.get("keyValue"), envelope["signature"], data):
        raise CallbackError("bad_signature", "The message signature does not verify.")
    return _message(envelope["signedMessage"], now)


def _message(signed_message: str, now: int) -> Callback:
    try:
        body = json.loads(signed_message)
        found = Callback(str(body["classId"]), str(body["objectId"]), str(body["eventType"]),
                         str(body["nonce"]), _int(body["expTimeMillis"]))
    except (ValueError, KeyError, TypeError):
        raise CallbackError("malformed", "The signed message lacks members.") from None
    if found.expires_ms <= now:
        raise CallbackError("expired", "The callback has expired.")
    if found.event_type not in EVENTS or not found.nonce or len(found.nonce) > 200:
        raise CallbackError("malformed", "Unknown eventType or bad nonce.")
    return found


def _int(value: object) -> int:
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return 0


def _verifies(public_b64: object, signature_b64: str, data: bytes) -> bool:
    if not isinstance(public_b64, str):
        return False
    try:
        public = serialization.load_der_public_key(base64.b64decode(public_b64))
        if not isinstance(public, ec.EllipticCurvePublicKey):
            return False
        public.verify(base64.b64decode(signature_b64), data, ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError, binascii.Error, TypeError):
        return False


# ---- Google's root keys, fetched and cached ---------------------------------------------------

_keys: dict[str, tuple[float, dict[str, Any]]] = {}
_keys_lock = threading.Lock()
MIN_CACHE_SECONDS = 60.0
MAX_CACHE_SECONDS = 3600.0


def root_keys(url: str, *, timeout: float = 10.0) -> dict[str, Any]:
    """Google's root signing keys from `url`, cached for up to an hour (not refetched on a
    bad signature, so forged callbacks cannot make us hammer Google).

    :raises CallbackError: the keys cannot be fetched (`keys_unavailable`).
    """
    now = time.time()
    with _keys_lock:
        cached = _keys.get(url)
        if cached and cached[0] > now:
            return cached[1]
    try:
        response = httpx.get(url, timeout=timeout)
        response.raise_for_status()
        keys = response.json()
        if not isinstance(keys, dict) or not isinstance(keys.get("keys"), list):
            raise ValueError("no keys")
    except (httpx.HTTPError, ValueError):
        raise CallbackError("keys_unavailable", "Google's root keys could not be fetched.") \
            from None
    expiries = [_int(k.get("keyExpiration")) / 1000 for k in keys["keys"] if isinstance(k, dict)]
    soonest = min([e for e in expiries if e > now] or [now + MAX_CACHE_SECONDS])
    ttl = max(MIN_CACHE_SECONDS, min(MAX_CACHE_SECONDS, soonest - now - 60))
    with _keys_lock:
        _keys[url] = (now + ttl, keys)
    return keys


def forget_root_keys() -> None:
    """Drop the cached root keys (key rotation, tests)."""
    with _keys_lock:
        _keys.clear()
