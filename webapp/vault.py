"""Secrets at rest: MultiFernet over `ENCRYPTION_KEYS` (the first encrypts, all decrypt)."""

from __future__ import annotations

from functools import lru_cache

from cryptography.fernet import Fernet, MultiFernet

from webapp import settings


@lru_cache(maxsize=8)
def _box(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(key) for key in keys])


def _current() -> MultiFernet:
    return _box(tuple(settings.get("ENCRYPTION_KEYS")))


def encrypt(plain: bytes) -> bytes:
    """Encrypt with the first key."""
    return _current().encrypt(plain)


def decrypt(token: bytes) -> bytes:
    """Decrypt with whichever key encrypted it."""
    return _current().decrypt(token)
