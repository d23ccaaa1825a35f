"""Members of an organization: listed by anyone in it, added and removed by an owner."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from werkzeug.security import generate_password_hash

from webapp import ids
from webapp.db.transaction import transaction
from webapp.errors import Conflict, InvalidRequest, NotFound, ServiceError
from webapp.extensions import db
from webapp.models import Membership, User
from webapp.services.accounts import users
from webapp.services.accounts.organizations import _EMAIL  # one definition of a valid email
from webapp.services.accounts.users import MIN_PASSWORD
from webapp.services.context import Context


class NotOwner(ServiceError):
    """Only an owner of the organization may do this."""

    default_code = "owner_required"


@dataclass(frozen=True)
class Member:
    id: str  # the membership's ID
    user_id: str
    email: str
    role: str
    created_at: datetime


@dataclass(frozen=True)
class Added:
    member: Member
    existing_user: bool  # True: the person signs in with the password they already have


def list_(ctx: Context) -> list[Member]:
    """The organization's members, owners first, then by email."""
    rows = db.session.execute(
        select(Membership.id, User.id, User.email, Membership.role, Membership.created_at)
        .join(User, User.id == Membership.user_id)
        .where(Membership.organization_id == ctx.organization_id)
        .order_by(Membership.role.desc(), User.email)
    ).all()
    return [Member(*row) for row in rows]


def add(ctx: Context, email: str, password: str) -> Added:
    """Add a member by email; a new user gets `password`, an existing one keeps theirs.

    :raises NotOwner: the acting user is not an owner.
    :raises InvalidRequest: bad email or password (`param` names which).
    :raises Conflict: already a member (`already_member`).
    """
    email = (email or "").strip().lower()
    if not _EMAIL.match(email):
        raise InvalidRequest("Enter a valid email address.", param="email")
    with transaction() as session:
        _require_owner(ctx)
        user = session.scalar(select(User).where(User.email == email))
        existing = user is not None
        if user is None:
            if len(password or "") < MIN_PASSWORD:
                raise InvalidRequest(f"The initial password needs at least {MIN_PASSWORD} "
                                     "characters.", param="password")
            user = User(id=ids.new_id("usr"), email=email,
                        password_hash=generate_password_hash(password))
            session.add(user)
            session.flush()
        elif session.scalar(select(Membership.id).where(
                Membership.user_id == user.id,
                Membership.organization_id == ctx.organization_id)):
            raise Conflict(f"{email} is a member already.", code="already_member",
                           param="email")
        row = Membership(id=ids.new_id("mem"), user_id=user.id,
                         organization_id=ctx.organization_id, role="member")
        session.add(row)
        session.flush()
        member = Member(row.id, user.id, user.email, row.role, row.created_at)
    return Added(member, existing)


def remove(ctx: Context, membership_id: str) -> None:
    """Remove a member (their other organizations are untouched) and end every session
    they have, so that a page left open or a copied cookie cannot act here any more.

    :raises NotOwner: the acting user is not an owner.
    :raises NotFound: no such membership in this organization.
    :raises Conflict: removing the last owner (`last_owner`).
    """
    with transaction() as session:
        _require_owner(ctx)
        row = session.scalar(select(Membership).where(
            Membership.id == membership_id,
            Membership.organization_id == ctx.organization_id)) if isinstance(
                membership_id, str) else None
        if row is None:
            raise NotFound(f"No such member: {membership_id}", param="id")
        if row.role == "owner":
            owners = session.scalar(select(func.count()).select_from(Membership).where(
                Membership.organization_id == ctx.organization_id, Membership.role == "owner")) or 0
            if owners <= 1:
                raise Conflict("The last owner cannot be removed.", code="last_owner")
        session.delete(row)
        users.end_sessions(row.user_id)


def _require_owner(ctx: Context) -> None:
    role = db.session.scalar(select(Membership.role).where(
        Membership.user_id == ctx.user_id, Membership.organization_id == ctx.organization_id))
    if role != "owner":
        raise NotOwner("Only an owner of the organization can manage members.")
