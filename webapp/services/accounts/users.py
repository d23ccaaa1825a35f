"""Dashboard users: sign-in check, loading a signed-in user, their organizations."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from sqlalchemy import select

from webapp.db.transaction import end_read
from webapp.extensions import db
from webapp.models import Membership, Organization, User
from webapp.services.accounts import organizations


@dataclass(frozen=True)
class StaffMembership:
    """One organization a user belongs to, and the user's role there."""

    id: str
    organization_id: str
    organization_name: str
    role: str  # owner | member


@dataclass(frozen=True)
class Staff:
    """A signed-in person as the dashboard sees them (no password hash)."""

    id: str
    email: str
    session_token: str  # changes when the password changes: old sessions stop working
    memberships: tuple[StaffMembership, ...]

    def membership(self, organization_id: str | None) -> StaffMembership | None:
        """The membership in this organization, or None."""
        return next((m for m in self.memberships if m.organization_id == organization_id), None)


def sign_in(email: str, password: str) -> Staff | None:
    """The user for these credentials when they belong to an organization, else None.

    Takes the same time for an unknown email as for a wrong password.
    """
    user = organizations.check_login(email, password)
    staff = _staff(user) if user is not None else None
    end_read()
    return staff if staff is not None and staff.memberships else None


def load(user_id: str, session_token: str) -> Staff | None:
    """The user of a session, or None if gone, signed out by a password change, or in no
    organization any more."""
    user = db.session.get(User, user_id) if isinstance(user_id, str) else None
    if user is None:
        return None
    staff = _staff(user)
    if not hmac.compare_digest(staff.session_token, session_token or ""):
        return None
    return staff if staff.memberships else None


def _staff(user: User) -> Staff:
    rows = db.session.execute(
        select(Membership.id, Membership.organization_id, Organization.name, Membership.role)
        .join(Organization, Organization.id == Membership.organization_id)
        .where(Membership.user_id == user.id)
        .order_by(Organization.name, Organization.id)
    ).all()
    memberships = tuple(StaffMembership(*row) for row in rows)
    return Staff(user.id, user.email, _token(user.password_hash), memberships)


def _token(password_hash: str) -> str:
    return hashlib.sha256(("session:" + password_hash).encode()).hexdigest()[:24]
