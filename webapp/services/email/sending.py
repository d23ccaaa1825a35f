"""Queueing an email of a pass: checked, recorded in the caller's transaction, sent by a job.

The API's `POST /v1/passes/<id>/send`, issuing with `send: true` and the dashboard's "Send by
email" all end here. Everything that can be wrong with the request is answered before a row
is written: a bad address or language (400), a voided pass (400 `pass_voided`, as for its
updates and download links), no SMTP settings (422 `email_not_configured`), in test an address
that is no member's (422 `test_recipient_not_member`), and too many emails in the last hour
(429 `email_rate_limited`: `limits.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp import clock, ids, settings
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import enqueue_after_commit, insert_new, transaction
from webapp.errors import InvalidRequest, Unprocessable
from webapp.extensions import db
from webapp.models import Pass, PassEmail
from webapp.services.context import Context
from webapp.services.email import limits, smtp

LANGUAGES = ("en", "de", "fr", "es")  # the holder pages' (webapp/i18n.py)
SEND_TASK = "send_pass_email"
# An address mail can be sent to: an ASCII dot-atom local part, a domain of DNS labels.
_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_DOMAIN = re.compile(r"^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]"
                     r"([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_SETUP = ("Sending email needs SMTP_URL (the SMTP server, such as "
          "smtp://user:password@smtp.example.com:587) and EMAIL_FROM (the sender address, "
          "such as passes@example.com) in the service's environment.")


@dataclass(frozen=True)
class Sender:
    """The SMTP server and the sender address (`EMAIL_FROM`)."""

    server: smtp.Server
    address: str


def sender() -> Sender:
    """The configured SMTP server and sender address.

    :raises Unprocessable: `email_not_configured`, naming what to set.
    """
    url, address = settings.get("SMTP_URL"), settings.get("EMAIL_FROM")
    if not url or not address:
        raise Unprocessable(_SETUP, code="email_not_configured")
    try:
        server = smtp.parse(str(url))
    except ValueError as exc:
        raise Unprocessable(f"{exc} {_SETUP}", code="email_not_configured") from None
    if not is_address(str(address)):
        raise Unprocessable(f"EMAIL_FROM is not an email address. {_SETUP}",
                            code="email_not_configured")
    return Sender(server, str(address))


def setup_problem() -> str | None:
    """What keeps this installation from sending email, or None when it can."""
    try:
        sender()
    except Unprocessable as exc:
        return exc.message
    return None


def is_address(value: str) -> bool:
    """Whether mail can be sent to `value` (a plain `local@domain`, no name, ASCII)."""
    local, at, domain = value.rpartition("@")
    return bool(at) and len(value) <= 254 and len(local) <= 64 and \
        bool(_LOCAL.match(local)) and bool(_DOMAIN.match(domain))


def check_address(value: object, param: str = "to") -> str:
    """`value`, if mail can be sent to it.

    :raises InvalidRequest: naming `param`.
    """
    if not isinstance(value, str) or not is_address(value):
        raise InvalidRequest(f"{param} is not an email address mail can be sent to (such as "
                             "holder@example.com).", param=param)
    return value


def check_locale(locale: str, param: str = "locale") -> str:
    """:raises InvalidRequest: not one of `LANGUAGES`."""
    if locale not in LANGUAGES:
        raise InvalidRequest(f"{param} must be one of {', '.join(LANGUAGES)}.", param=param)
    return locale


def send(ctx: Context, pass_id: str, to: str | None = None, locale: str = "en") -> PassEmail:
    """Queue an email of the pass to `to` (default: its holderEmail), written in `locale`.

    :raises InvalidRequest: a bad `to` or locale, no address at all, a voided pass.
    :raises NotFound: no such pass.
    :raises Unprocessable: email is not configured (`email_not_configured`); in test, `to`
        is no member's address (`test_recipient_not_member`).
    :raises RateLimited: too many emails of the pass or to `to` in the last hour.
    """
    param = "to" if to is not None else "holderEmail"  # where the address came from
    if to is not None:
        check_address(to)
    check_locale(locale)
    item = find_or_404(Pass, pass_id, prefix="pass", what="pass",
                       organization_id=ctx.organization_id, environment=ctx.environment)
    if item.status == "voided":
        raise InvalidRequest("This pass is voided: it can no longer be sent.",
                             code="pass_voided")
    if to is None:
        if item.holder_email is None:
            raise InvalidRequest("The pass has no holderEmail: send `to`, the address to "
                                 "send it to.", code="parameter_missing", param="to")
        if not is_address(item.holder_email):
            raise InvalidRequest("The pass's holderEmail is not an address mail can be sent "
                                 "to: send `to`.", param="to")
        to = item.holder_email
    sender()
    limits.check_recipient(ctx, to, param)
    with transaction() as session:
        limits.check_rate(ctx, to, param, item.id)
        row = record(session, item, to, locale)
    return row


def check_issue(ctx: Context, holder_email: str | None, locale: str,
                planned: int = 0) -> None:
    """What issuing with `send: true` needs: the holder's address (in test, a member's),
    email set up, and room in the hour's sends to it (`planned` more in this batch); called
    in the issuing transaction.

    :raises InvalidRequest: no or a bad holderEmail, a bad locale.
    :raises Unprocessable: email is not configured (`email_not_configured`); in test, no
        member's address (`test_recipient_not_member`).
    :raises RateLimited: too many emails to the address in the last hour.
    """
    if holder_email is None:
        raise InvalidRequest("send: true sends the pass to holderEmail: send holderEmail too.",
                             code="parameter_missing", param="holderEmail")
    check_address(holder_email, "holderEmail")
    check_locale(locale)
    sender()
    limits.check_recipient(ctx, holder_email, "holderEmail")
    limits.check_rate(ctx, holder_email, "holderEmail", None, planned)


def record(session: Session, item: Pass, to: str, locale: str) -> PassEmail:
    """Record an email of the pass in the caller's transaction; its job runs after the commit."""
    now = clock.now()
    row = PassEmail(
        id=ids.new_id("eml"), pass_id=item.id, organization_id=item.organization_id,
        environment=item.environment, to_address=to, locale=locale, status="queued",
        error=None, attempts=0, next_attempt_at=now, locked_until=None, created_at=now,
        updated_at=now, sent_at=None)
    insert_new(session, row)
    enqueue_after_commit(session, SEND_TASK, row.id)
    return row


def latest(pass_id: str) -> PassEmail | None:
    """The pass's newest email, if any."""
    return db.session.scalar(select(PassEmail).where(PassEmail.pass_id == pass_id)
                             .order_by(PassEmail.id.desc()).limit(1))


def list_for_pass(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
                  cursor: str | None = None) -> pagination.Page[PassEmail]:
    """The pass's emails, newest first.

    :raises NotFound: no such pass.
    :raises InvalidRequest: bad limit or cursor.
    """
    item = find_or_404(Pass, pass_id, prefix="pass", what="pass",
                       organization_id=ctx.organization_id, environment=ctx.environment)
    scope = select(PassEmail.id).where(PassEmail.pass_id == item.id)
    query = select(PassEmail).where(PassEmail.pass_id == item.id)
    return pagination.paginate(query, PassEmail.id, scope, limit=limit, cursor=cursor)
