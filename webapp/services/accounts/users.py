"""Dashboard users: sign-in check, loading a signed-in user, their organizations, ending
their sessions, changing their password."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from sqlalchemy import select, update

from webapp.db.transaction import end_read, transaction
from webapp.errors import InvalidRequest
from webapp.extensions import db
from webapp.models import Membership, Organization, User
from webapp.services.accounts import organizations, passwords

MIN_PASSWORD = 8


@dataclass(frozen=True)
class StaffMembership:
    """One organization a user belongs to, and the user's role there."""

    id: str
    organization_id: str
    organization_name: str
    role: str  # owner | member | scanner (accounts.members.ROLES)


@dataclass(frozen=True)
class Staff:
    """A signed-in person as the dashboard sees them (no password hash)."""

    id: str
    email: str
    session_token: str  # changes with the password and `end_sessions`: old sessions stop
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
    """The user of a session, or None if gone, their sessions ended (`end_sessions`, a new
    password), or in no organization any more."""
    user = db.session.get(User, user_id) if isinstance(user_id, str) else None
    if user is None:
        return None
    staff = _staff(user)
    if not hmac.compare_digest(staff.session_token, session_token or ""):
        return None
    return staff if staff.memberships else None


def staff_of(user_id: str) -> Staff | None:
    """The user as a session shows them, to start a session for (after accepting an
    invitation), or None."""
    user = db.session.get(User, user_id)
    return _staff(user) if user is not None else None


def _staff(user: User) -> Staff:
    rows = db.session.execute(
        select(Membership.id, Membership.organization_id, Organization.name, Membership.role)
        .join(Organization, Organization.id == Membership.organization_id)
        .where(Membership.user_id == user.id)
        .order_by(Organization.name, Organization.id)
    ).all()
    memberships = tuple(StaffMembership(*row) for row in rows)
    return Staff(user.id, user.email, _token(user), memberships)


def _token(user: User) -> str:
    # The password hash is in it too, so a password set by any path ends the old sessions.
    seed = f"session:{user.session_generation}:{user.password_hash}"
    return hashlib.sha256(seed.encode()).hexdigest()[:24]


def end_sessions(user_id: str) -> None:
    """End every dashboard session of this user, on every device (a copied cookie too)."""
    with transaction() as session:
        session.execute(update(User).where(User.id == user_id).values(
            session_generation=User.session_generation + 1))


def change_password(user_id: str, current_password: str, new_password: str) -> Staff:
    """Set a new password and end every session of the user. Returns the user with the new
    session token, for the session that made the change to go on with.

    :raises InvalidRequest: the current password is wrong (`current_password`), or the new
        one is too short (`new_password`).
    """
    user = db.session.get(User, user_id)
    if user is None or not passwords.matches(user.password_hash, current_password):
        raise InvalidRequest("The current password is not correct.", param="current_password")
    if len(new_password or "") < MIN_PASSWORD:
        raise InvalidRequest(f"The new password needs at least {MIN_PASSWORD} characters.",
                             param="new_password")
    password_hash = passwords.hash_password(new_password)  # slow: before the writers' queue
    with transaction() as session:
        session.execute(update(User).where(User.id == user_id).values(
            password_hash=password_hash, session_generation=User.session_generation + 1))
    db.session.expire(user)
    return _staff(user)
