"""Identifiers: a prefix and a time-ordered random part, so IDs sort newest-last.

`new_id("pass")` -> `pass_01jd7k2m3q...` (26 Crockford base32 characters: 48 bits of
milliseconds, then 80 bits that are random for each new millisecond and count up within
one, as ULIDs do). Sorting by ID is sorting by creation, which list endpoints rely on
for a stable newest-first order and for cursors that are plain IDs.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
# No 0/O, 1/I/L: a holder may have to read or type a short ID (decisions.md section 7).
SHORT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

_lock = threading.Lock()
_last_ms = -1
_last_rand = 0


_PAIRS = [a + b for a in _ALPHABET for b in _ALPHABET]  # 10 bits at a time


def _encode(value: int, length: int) -> str:
    """The `length` lowest base32 digits of `value`, most significant first."""
    out = []
    if length % 2:
        value, rem = divmod(value, 32)
        out.append(_ALPHABET[rem])
    for _ in range(length // 2):
        value, rem = divmod(value, 1024)
        out.append(_PAIRS[rem])
    return "".join(reversed(out))


def new_id(prefix: str) -> str:
    """A new prefixed, time-ordered ID."""
    global _last_ms, _last_rand
    with _lock:
        ms = time.time_ns() // 1_000_000
        if ms <= _last_ms:
            ms = _last_ms
            _last_rand += 1
        else:
            _last_ms = ms
            _last_rand = secrets.randbits(79)  # headroom so counting up never overflows
        rand = _last_rand
    return f"{prefix}_{_encode(ms, 10)}{_encode(rand, 16)}"


def has_prefix(value: object, prefix: str) -> bool:
    """Whether `value` is a string that looks like an ID of this prefix."""
    if not isinstance(value, str) or not value.startswith(prefix + "_") or len(value) > 64:
        return False
    rest = value[len(prefix) + 1:]
    return rest.isascii() and rest.isalnum()


def random_base62(length: int) -> str:
    """Random base62 text, for API keys."""
    return "".join(secrets.choice(_BASE62) for _ in range(length))


def short_id() -> str:
    """12 characters of the unambiguous upper-case alphabet (about 59 bits), uniform: one
    draw below 31**12 written in base 31 (a draw per character read the OS's random
    source twelve times)."""
    value = secrets.randbelow(_SHORT_SPACE)
    out = []
    for _ in range(12):
        value, rem = divmod(value, 31)
        out.append(SHORT_ALPHABET[rem])
    return "".join(out)


_SHORT_SPACE = len(SHORT_ALPHABET) ** 12


def token(nbytes: int = 24) -> str:
    """A URL-safe random token (24 bytes = 192 bits)."""
    return secrets.token_urlsafe(nbytes)


def sha256_hex(value: str) -> str:
    """The SHA-256 of a secret, as stored in place of the secret."""
    return hashlib.sha256(value.encode()).hexdigest()
