"""Invitations: how an owner adds someone to the organization (decisions.md, issue 31).

An owner invites an address with a role; the answer is the same whether or not the address
has an account, so nobody learns who has one. Where email is set up the link goes to the
address by email (a job, `send_email`) and the owner never sees it; otherwise the owner gets
the link to pass on. The link works once, for `LIFETIME`: its holder signs in with the
address's password (or, for an address without an account, chooses one) and accepts; only
then is the person a member. Only the token's SHA-256 is stored. Inviting an address again
replaces its open invitation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update

from webapp import clock, ids, metrics, settings
from webapp.db.transaction import changed_rows, end_read, enqueue_after_commit, transaction
from webapp.errors import Conflict, InvalidRequest, NotFound, Unprocessable
from webapp.extensions import db
from webapp.models import Invitation, Membership, Organization, User
from webapp.services.accounts import members, passwords
from webapp.services.accounts.organizations import _EMAIL
from webapp.services.accounts.users import MIN_PASSWORD
from webapp.services.context import Context
from webapp.services.email import message, sending, smtp

LIFETIME = timedelta(days=7)
SEND_TASK = "send_invitation_email"
log = logging.getLogger("webapp.email")


@dataclass(frozen=True)
class Invited:
    """A new invitation and the token of its link (shown once), or None when the link goes
    by email (a new token, made when it is sent)."""

    id: str
    email: str
    role: str
    expires_at: datetime
    token: str | None


@dataclass(frozen=True)
class Open:
    """An invitation still waiting, as the members page and its link's page show it."""

    id: str
    organization_id: str
    organization_name: str
    email: str
    role: str
    expires_at: datetime


class WrongPassword(InvalidRequest):
    """The password of the invited address's account is not this one."""

    default_code = "incorrect_password"


def invite(ctx: Context, email: str, role: str = "member") -> Invited:
    """Invite `email` with `role` (an owner only); replaces the address's open invitation.

    :raises NotOwner: the acting user is not an owner.
    :raises InvalidRequest: a bad email or role (`param` names which).
    :raises Conflict: already a member here (`already_member`).
    """
    email = (email or "").strip().lower()
    if not _EMAIL.match(email) or len(email) > 254:
        raise InvalidRequest("Enter a valid email address.", param="email")
    members.check_role(role)
    token = ids.token(32)
    now = clock.now()
    emailed = sending.setup_problem() is None
    with transaction() as session:
        members.require_owner(ctx)
        if session.scalar(select(Membership.id).join(User, User.id == Membership.user_id)
                          .where(Membership.organization_id == ctx.organization_id,
                                 User.email == email)):
            raise Conflict(f"{email} is a member already.", code="already_member",
                           param="email")
        session.execute(delete(Invitation).where(
            Invitation.organization_id == ctx.organization_id, Invitation.email == email,
            Invitation.accepted_at.is_(None)))
        row = Invitation(id=ids.new_id("inv"), organization_id=ctx.organization_id,
                         email=email, role=role, token_hash=ids.sha256_hex(token),
                         invited_by=ctx.user_id, created_at=now, expires_at=now + LIFETIME)
        session.add(row)
        session.flush()
        if emailed:
            enqueue_after_commit(session, SEND_TASK, row.id)
    return Invited(row.id, email, role, row.expires_at, None if emailed else token)


def send_email(invitation_id: str) -> smtp.Outcome | None:
    """Email an open invitation's link to its address: a new token, so the link exists only
    in the email. Once: a failure is logged and the owner invites again (no retries).
    None when the invitation is no longer open."""
    token = ids.token(32)
    with transaction() as session:
        row = session.get(Invitation, invitation_id)
        if row is None or row.accepted_at is not None or row.expires_at <= clock.now():
            return None
        row.token_hash = ids.sha256_hex(token)
        organization = session.get(Organization, row.organization_id)
        name = organization.name if organization else ""
        to, role, expires_at = row.email, row.role, row.expires_at
    try:
        setup = sending.sender()
    except Unprocessable as exc:
        metrics.EMAILS.labels("invitation", "failed").inc()
        return smtp.Outcome("email_not_configured", exc.message)
    link = f"{settings.get('BASE_URL')}/dashboard/invitations/{token}"
    outcome = smtp.send(setup.server, message.invitation(
        invitation_id, to, setup.address, name, role, link, expires_at), setup.address, to)
    log.info("invitation %s email: %s", invitation_id, outcome.code or "sent")
    metrics.EMAILS.labels("invitation", "sent" if outcome.ok else "failed").inc()
    return outcome


def list_open(ctx: Context) -> list[Open]:
    """The organization's invitations not yet accepted and not expired, newest first."""
    rows = db.session.execute(
        select(Invitation.id, Invitation.organization_id, Organization.name, Invitation.email,
               Invitation.role,
               Invitation.expires_at)
        .join(Organization, Organization.id == Invitation.organization_id)
        .where(Invitation.organization_id == ctx.organization_id,
               Invitation.accepted_at.is_(None), Invitation.expires_at > clock.now())
        .order_by(Invitation.id.desc())).all()
    return [Open(*row) for row in rows]


def withdraw(ctx: Context, invitation_id: str) -> None:
    """Withdraw an open invitation: its link stops working.

    :raises NotOwner: the acting user is not an owner.
    :raises NotFound: no such open invitation in this organization.
    """
    with transaction() as session:
        members.require_owner(ctx)
        gone = changed_rows(session, delete(Invitation).where(
            Invitation.id == str(invitation_id),
            Invitation.organization_id == ctx.organization_id,
            Invitation.accepted_at.is_(None)))
    if gone != 1:
        raise NotFound(f"No such invitation: {invitation_id}", param="id")


def find(token: str) -> Open | None:
    """The open invitation of a link's token, or None (unknown, accepted, expired)."""
    row = _open(token)
    if row is None:
        return None
    organization = db.session.get(Organization, row.organization_id)
    return Open(row.id, row.organization_id, organization.name if organization else "",
                row.email, row.role, row.expires_at)


def accept(token: str, password: str, user_id: str | None = None) -> str:
    """Accept the invitation: as the signed-in `user_id` (whose address it must be), else
    with the address's password, or, for an address without an account, a new one.
    Returns the user ID, now a member.

    :raises NotFound: no open invitation for the token (unknown, accepted, expired).
    :raises WrongPassword: the address's account has another password.
    :raises InvalidRequest: a new password that is too short (`password`); signed in as
        someone else (`wrong_user`).
    """
    row = _open(token)
    if row is None:
        raise _gone()
    user = db.session.scalar(select(User).where(User.email == row.email))
    if user_id is not None:
        if user is None or user.id != user_id:
            raise InvalidRequest(f"This invitation is for {row.email}: sign out, then open "
                                 "the link again.", code="wrong_user")
    elif user is not None:
        if not passwords.matches(user.password_hash, password):
            raise WrongPassword("The password is not correct.", param="password")
    else:
        passwords.check_nobody(password)  # the same time as a known address
        if len(password or "") < MIN_PASSWORD:
            raise InvalidRequest(f"The password needs at least {MIN_PASSWORD} characters.",
                                 param="password")
    new_hash = passwords.hash_password(password) if user is None else None
    end_read()
    return _join(row.id, row.email, new_hash)


def _join(invitation_id: str, email: str, new_hash: str | None) -> str:
    """Mark the invitation accepted (once: a replay or a race finds it gone) and make the
    membership, with the account if it is new."""
    now = clock.now()
    with transaction() as session:
        won = changed_rows(session, update(Invitation).where(
            Invitation.id == invitation_id, Invitation.accepted_at.is_(None),
            Invitation.expires_at > now).values(accepted_at=now)
            .execution_options(synchronize_session=False))
        if won != 1:
            raise _gone()
        row = session.get(Invitation, invitation_id)
        assert row is not None
        user = session.scalar(select(User).where(User.email == email))
        if (user is None) != (new_hash is not None):  # pragma: no cover - made or gone
            raise Conflict("The account of this address changed meanwhile: open the link "
                           "again.", code="account_changed")
        if user is None:
            user = User(id=ids.new_id("usr"), email=email, password_hash=str(new_hash))
            session.add(user)
            session.flush()
        if not session.scalar(select(Membership.id).where(
                Membership.user_id == user.id,
                Membership.organization_id == row.organization_id)):
            session.add(Membership(id=ids.new_id("mem"), user_id=user.id,
                                   organization_id=row.organization_id, role=row.role))
            session.flush()
        return user.id


def _open(token: str) -> Invitation | None:
    if not isinstance(token, str) or not token or len(token) > 100:
        return None
    return db.session.scalar(select(Invitation).where(
        Invitation.token_hash == ids.sha256_hex(token), Invitation.accepted_at.is_(None),
        Invitation.expires_at > clock.now()))


def _gone() -> NotFound:
    return NotFound("This invitation link does not work any more: it was used, it expired, "
                    "or it was withdrawn. Ask for a new one.", code="invitation_gone")
