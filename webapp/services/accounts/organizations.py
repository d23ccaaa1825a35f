"""Organizations and their dashboard users."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sqlalchemy import select

from webapp import ids
from webapp.db.transaction import transaction
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import ApiKey, Membership, Organization, User
from webapp.services.accounts import api_keys, passwords

_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{2,63}$")


@dataclass(frozen=True)
class CreatedOrganization:
    organization: Organization
    keys: dict[str, str]  # environment -> the secret, shown once
    email: str
    password: str


def create(name: str, email: str | None = None, password: str | None = None) -> CreatedOrganization:
    """A new organization with a test key, a live key and an owner who can sign in.

    Without `email`/`password` a dashboard login is generated.

    :raises InvalidRequest: bad name, email or password.
    :raises Conflict: the email belongs to another user already.
    """
    name = (name or "").strip()
    if not 1 <= len(name) <= 100:
        raise InvalidRequest("name must be 1 to 100 characters.", param="name")
    org_id = ids.new_id("org")
    email = (email or f"owner+{org_id[-8:]}@example.com").strip().lower()
    if not _EMAIL.match(email):
        raise InvalidRequest("email is not a valid address.", param="email")
    password = password or secrets.token_urlsafe(12)
    if len(password) < 8:
        raise InvalidRequest("password must be at least 8 characters.", param="password")
    with transaction() as session:
        if session.scalar(select(User.id).where(User.email == email)):
            raise Conflict("A user with this email exists already.", code="email_taken")
        org = Organization(id=org_id, name=name)
        user = User(id=ids.new_id("usr"), email=email,
                    password_hash=passwords.hash_password(password))
        session.add_all([org, user])
        session.flush()
        session.add(Membership(id=ids.new_id("mem"), user_id=user.id, organization_id=org.id,
                               role="owner"))
        keys = {env: api_keys.add(session, org.id, env, "Default")[1] for env in ("test", "live")}
    return CreatedOrganization(org, keys, email, password)


def get(organization_id: str) -> Organization:
    """:raises NotFound: no such organization."""
    org = db.session.get(Organization, organization_id)
    if org is None:
        raise NotFound(f"No organization {organization_id}.")
    return org


def any_exists() -> bool:
    """Whether the installation has an organization yet."""
    return db.session.scalar(select(Organization.id).limit(1)) is not None


def check_login(email: str, password: str) -> User | None:
    """The user for these credentials, or None (same work either way)."""
    user = db.session.scalar(select(User).where(User.email == (email or "").strip().lower()))
    if user is None:
        passwords.check_nobody(password)
        return None
    return user if passwords.matches(user.password_hash, password) else None

__all__ = ["ApiKey", "CreatedOrganization", "any_exists", "check_login", "create", "get"]
