"""Secrets at rest, sealed with `ENCRYPTION_KEYS` (the first seals, all open).

A sealed value is URL-safe base64 of: the format byte 0x01, the sealing key's 4-byte ID, a
random 12-byte nonce, and the AES-256-GCM ciphertext with its tag; the format byte and key ID
are authenticated with it. The AES key is derived (HKDF-SHA256) from each configured key, a
Fernet key as the settings have always taken, so nothing about the keys changed.

Values sealed before this format are Fernet tokens (first byte 0x80) and open as before.
AES-GCM is one call into OpenSSL: a Fernet token cost 10-30 us to open (base64, HMAC, CBC
and unpadding, each in Python), on every `.pkpass` build and stored answer (issue 34).
Random 96-bit nonces are safe for about 2**32 values per key; rotate keys well before.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from webapp import settings

__all__ = ["InvalidToken", "decrypt", "encrypt"]

_FORMAT = b"\x01"
_FERNET = 0x80
_ID_SIZE, _NONCE_SIZE = 4, 12
_HEADER_SIZE = 1 + _ID_SIZE


@dataclass(frozen=True)
class _Keys:
    sealing: tuple[bytes, AESGCM]  # (key ID, cipher) of the first key
    by_id: dict[bytes, list[AESGCM]]
    fernet: MultiFernet  # for values sealed before AES-GCM


@lru_cache(maxsize=8)
def _keys(configured: tuple[str, ...]) -> _Keys:
    if not configured:
        raise ValueError("ENCRYPTION_KEYS is empty")
    fernets = [Fernet(key) for key in configured]  # checks the format: 32 bytes, base64
    ciphers = []
    by_id: dict[bytes, list[AESGCM]] = {}
    for key in configured:
        aes_key = HKDF(hashes.SHA256(), 32, None, b"pass-service vault aes-256-gcm").derive(
            base64.urlsafe_b64decode(key))
        key_id, cipher = hashlib.sha256(aes_key).digest()[:_ID_SIZE], AESGCM(aes_key)
        ciphers.append((key_id, cipher))
        by_id.setdefault(key_id, []).append(cipher)
    return _Keys(ciphers[0], by_id, MultiFernet(fernets))


def _current() -> _Keys:
    return _keys(tuple(settings.get("ENCRYPTION_KEYS")))


def encrypt(plain: bytes) -> bytes:
    """Seal with the first key."""
    key_id, cipher = _current().sealing
    header, nonce = _FORMAT + key_id, os.urandom(_NONCE_SIZE)
    return base64.urlsafe_b64encode(header + nonce + cipher.encrypt(nonce, plain, header))


def decrypt(token: bytes) -> bytes:
    """Open with whichever key sealed it.

    :raises InvalidToken: not sealed by any of the keys, or changed since.
    """
    keys = _current()
    try:
        raw = base64.urlsafe_b64decode(token)
    except ValueError:
        raise InvalidToken from None
    if raw[:1] == bytes([_FERNET]):
        return keys.fernet.decrypt(token)
    header = raw[:_HEADER_SIZE]
    if header[:1] != _FORMAT or len(raw) < _HEADER_SIZE + _NONCE_SIZE:
        raise InvalidToken
    nonce, sealed = raw[_HEADER_SIZE:_HEADER_SIZE + _NONCE_SIZE], raw[_HEADER_SIZE + _NONCE_SIZE:]
    for cipher in keys.by_id.get(header[1:], []):
        try:
            return cipher.decrypt(nonce, sealed, header)
        except InvalidTag:
            continue
    raise InvalidToken
