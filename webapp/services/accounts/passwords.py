"""Dashboard users' password hashes: werkzeug's, made with `PASSWORD_HASH_METHOD` (scrypt).

A hash names its own method, so a check costs what the stored hash costs; the test suite sets
a cheap method because nearly every test creates a user. Production refuses anything but the
default (webapp.config).
"""

from __future__ import annotations

import functools

from werkzeug.security import check_password_hash, generate_password_hash

from webapp import settings


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=str(settings.get("PASSWORD_HASH_METHOD")))


def matches(password_hash: str, password: str | None) -> bool:
    return check_password_hash(password_hash, password or "")


def check_nobody(password: str | None) -> None:
    """The work of a check for an address with no account, so that timing tells nothing."""
    check_password_hash(_nobody_hash(str(settings.get("PASSWORD_HASH_METHOD"))), password or "")


@functools.cache
def _nobody_hash(method: str) -> str:
    return generate_password_hash("no user has this password", method=method)
