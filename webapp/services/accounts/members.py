"""Members of an organization: listed by anyone in it, added, removed and given a role by an
owner.

Roles: `owner` (everything, members included), `member` (everything but members), `scanner`
(the dashboard's scanner page only: staff at the door).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from webapp import ids
from webapp.db.transaction import transaction
from webapp.errors import Conflict, InvalidRequest, NotFound, ServiceError
from webapp.extensions import db
from webapp.models import Membership, User
from webapp.services.accounts import passwords
from webapp.services.accounts.organizations import _EMAIL  # one definition of a valid email
from webapp.services.accounts.users import MIN_PASSWORD
from webapp.services.context import Context

ROLES = ("owner", "member", "scanner")


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
    """The organization's members: owners, members, then scanners; each by email."""
    rows = db.session.execute(
        select(Membership.id, User.id, User.email, Membership.role, Membership.created_at)
        .join(User, User.id == Membership.user_id)
        .where(Membership.organization_id == ctx.organization_id)
        .order_by(case({role: rank for rank, role in enumerate(ROLES)},
                       value=Membership.role, else_=len(ROLES)), User.email)
    ).all()
    return [Member(*row) for row in rows]


def add(ctx: Context, email: str, password: str, role: str = "member") -> Added:
    """Add a member by email with `role` at once; a new user gets `password`, an existing one
    keeps theirs. Not for owners in the dashboard, who invite (`invitations.invite`): its
    answer would tell whether the address has an account. Operators and tests use it.

    :raises NotOwner: the acting user is not an owner.
    :raises InvalidRequest: bad email, password or role (`param` names which).
    :raises Conflict: already a member (`already_member`).
    """
    email = (email or "").strip().lower()
    if not _EMAIL.match(email):
        raise InvalidRequest("Enter a valid email address.", param="email")
    check_role(role)
    with transaction() as session:
        require_owner(ctx)
        user = session.scalar(select(User).where(User.email == email))
        existing = user is not None
        if user is None:
            if len(password or "") < MIN_PASSWORD:
                raise InvalidRequest(f"The initial password needs at least {MIN_PASSWORD} "
                                     "characters.", param="password")
            user = User(id=ids.new_id("usr"), email=email,
                        password_hash=passwords.hash_password(password))
            session.add(user)
            session.flush()
        elif session.scalar(select(Membership.id).where(
                Membership.user_id == user.id,
                Membership.organization_id == ctx.organization_id)):
            raise Conflict(f"{email} is a member already.", code="already_member",
                           param="email")
        row = Membership(id=ids.new_id("mem"), user_id=user.id,
                         organization_id=ctx.organization_id, role=role)
        session.add(row)
        session.flush()
        member = Member(row.id, user.id, user.email, row.role, row.created_at)
    return Added(member, existing)


def remove(ctx: Context, membership_id: str) -> None:
    """Remove a member. Their sessions in this organization end with the membership (a
    session names the membership it acts in: `dashboard._guard`), so a page left open or a
    copied cookie cannot act here any more; their sessions elsewhere go on.

    :raises NotOwner: the acting user is not an owner.
    :raises NotFound: no such membership in this organization.
    :raises Conflict: removing the last owner (`last_owner`).
    """
    with transaction() as session:
        require_owner(ctx)
        row = _membership(session, ctx, membership_id)
        if row.role == "owner" and _owners(ctx) <= 1:
            raise Conflict("The last owner cannot be removed.", code="last_owner")
        session.delete(row)


def set_role(ctx: Context, membership_id: str, role: str) -> Member:
    """Give a member another role; it applies from their next request.

    :raises NotOwner: the acting user is not an owner.
    :raises InvalidRequest: an unknown role (`role`).
    :raises NotFound: no such membership in this organization.
    :raises Conflict: the last owner would be left without the owner role (`last_owner`).
    """
    check_role(role)
    with transaction() as session:
        require_owner(ctx)
        row = _membership(session, ctx, membership_id)
        if row.role == "owner" and role != "owner" and _owners(ctx) <= 1:
            raise Conflict("The last owner must stay an owner.", code="last_owner",
                           param="role")
        row.role = role
        session.flush()
        user = session.get(User, row.user_id)
        return Member(row.id, row.user_id, user.email if user else "", row.role,
                      row.created_at)


def _membership(session: Session, ctx: Context, membership_id: str) -> Membership:
    """The organization's membership `membership_id`, else NotFound (a non-string ID too)."""
    row = session.scalar(select(Membership).where(
        Membership.id == membership_id,
        Membership.organization_id == ctx.organization_id)) if isinstance(
            membership_id, str) else None
    if row is None:
        raise NotFound(f"No such member: {membership_id}", param="id")
    return row


def check_role(role: str) -> None:
    if role not in ROLES:
        raise InvalidRequest(f"role must be one of {', '.join(ROLES)}.", param="role")


def _owners(ctx: Context) -> int:
    return db.session.scalar(select(func.count()).select_from(Membership).where(
        Membership.organization_id == ctx.organization_id, Membership.role == "owner")) or 0


def require_owner(ctx: Context) -> None:
    role = db.session.scalar(select(Membership.role).where(
        Membership.user_id == ctx.user_id, Membership.organization_id == ctx.organization_id))
    if role != "owner":
        raise NotOwner("Only an owner of the organization can manage members.")
