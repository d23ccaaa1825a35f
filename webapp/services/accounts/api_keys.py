"""API keys: created with their secret shown once, stored as SHA-256, revoked, checked.

A key may be restricted to a level per resource (`webapp.domain.permissions`); the API checks
it on every request. Without permissions a key has full access.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.db.transaction import transaction
from webapp.domain import permissions as access
from webapp.errors import AuthenticationFailed, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import ApiKey, Organization
from webapp.services.context import ENVIRONMENTS, Context

KEY_PATTERN = re.compile(r"^svc_(test|live)_[0-9A-Za-z]{32}$")
_LAST_USED_GRANULARITY = timedelta(minutes=1)
_INVALID = "Invalid API key provided."


def add(session: Session, organization_id: str, environment: str, name: str,
        permissions: access.Permissions | None = None) -> tuple[ApiKey, str]:
    """Add a key inside the caller's transaction; returns the row and the secret.

    `permissions` are already validated (`webapp.domain.permissions.validate`); None: full access.
    """
    secret = f"svc_{environment}_{ids.random_base62(32)}"
    key = ApiKey(
        id=ids.new_id("key"), organization_id=organization_id, environment=environment,
        name=name, prefix=secret[:13], secret_hash=ids.sha256_hex(secret),
        permissions=permissions,
    )
    session.add(key)
    return key, secret


def create(organization_id: str, environment: str, name: str | None = None,
           permissions: Mapping[str, str] | None = None) -> tuple[ApiKey, str]:
    """A new key; the secret is returned here and never again.

    `permissions` maps resources to levels (those left out: none); None gives full access.

    :raises InvalidRequest: unknown environment, bad name, unknown resource or level.
    :raises NotFound: no such organization.
    """
    if environment not in ENVIRONMENTS:
        raise InvalidRequest("environment must be test or live.", param="environment")
    name = (name or "Secret key").strip()
    if not 1 <= len(name) <= 100:
        raise InvalidRequest("name must be 1 to 100 characters.", param="name")
    checked = None if permissions is None else _checked(permissions)
    with transaction() as session:
        if session.get(Organization, organization_id) is None:
            raise NotFound(f"No organization {organization_id}.")
        return add(session, organization_id, environment, name, checked)


def _checked(permissions: Mapping[str, str]) -> access.Permissions:
    """:raises InvalidRequest: what `webapp.domain.permissions.validate` refuses."""
    try:
        return access.validate(permissions)
    except access.InvalidPermissions as exc:
        raise InvalidRequest(exc.message, code="invalid_permissions",
                             param="permissions") from None


def revoke(key_id: str, organization_id: str | None = None) -> ApiKey:
    """Revoke a key (again is a no-op).

    :raises NotFound: no such key (in this organization, when given).
    """
    with transaction() as session:
        key = session.get(ApiKey, key_id)
        if key is None or (organization_id and key.organization_id != organization_id):
            raise NotFound(f"No API key {key_id}.")
        if key.revoked_at is None:
            key.revoked_at = clock.now()
    return key


def list_for(organization_id: str) -> list[ApiKey]:
    """Every key of an organization, newest first."""
    return list(db.session.scalars(
        select(ApiKey).where(ApiKey.organization_id == organization_id).order_by(ApiKey.id.desc())
    ))


_keys = ApiKey.__table__
# Built once (a plain SELECT, compiled once): every API request runs it.
_BY_HASH = select(_keys.c.id, _keys.c.organization_id, _keys.c.environment, _keys.c.secret_hash,
                  _keys.c.revoked_at, _keys.c.last_used_at, _keys.c.permissions).where(
    _keys.c.secret_hash == bindparam("digest"))


def authenticate(secret: str | None, request_id: str | None = None) -> Context:
    """The context of a valid, unrevoked key.

    :raises AuthenticationFailed: missing, malformed, unknown or revoked (all alike).
    """
    if not secret or not KEY_PATTERN.match(secret):
        raise AuthenticationFailed(_INVALID)
    digest = ids.sha256_hex(secret)
    # The request goes on in this read transaction: its later reads see the same snapshot
    # (SQLite) and its first write continues it (PostgreSQL) or ends it first (SQLite).
    row = db.session.connection().execute(_BY_HASH, {"digest": digest}).one_or_none()
    if row is None or row.revoked_at or not hmac.compare_digest(row.secret_hash, digest):
        raise AuthenticationFailed(_INVALID)
    now = clock.now()
    if row.last_used_at is None or now - row.last_used_at > _LAST_USED_GRANULARITY:
        _touch(row.id, now)
    return Context(organization_id=row.organization_id, environment=row.environment,
                   actor="api", request_id=request_id, api_key_id=row.id,
                   permissions=access.complete(row.permissions))


def _touch(key_id: str, now: datetime) -> None:
    """Record use at most once a minute per key, so reads stay reads."""
    with transaction() as session:
        session.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=now))
