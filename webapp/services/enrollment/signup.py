"""A person signs up on a template's page (`/join/<slug>`): the page's state, and the
sign-up itself: one person (email) one pass per template and environment.

The rule is the `enrollments` primary key (template, environment, hash of the normalised
email), claimed with `INSERT ... ON CONFLICT DO NOTHING` before the pass is issued, in the
same transaction: a second sign-up at the same moment waits for the first's commit
(PostgreSQL) or its turn (SQLite's writers' queue), then finds the row and issues nothing.
The existing pass is never shown: it is emailed to the address typed, when email can be sent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite

from webapp import clock
from webapp.db.transaction import changed_rows, transaction
from webapp.domain import enrollment as rules
from webapp.domain.text import problem
from webapp.errors import InvalidRequest, NotFound, RateLimited, ServiceError, Unprocessable
from webapp.extensions import db
from webapp.models import Enrollment, EnrollmentLink, Organization, Pass, Template
from webapp.services.context import Context
from webapp.services.email import sending
from webapp.services.insights import record as insights
from webapp.services.passes import issuing, views
from webapp.services.templates import revisions

MAX_NAME = 200


@dataclass(frozen=True)
class Page:
    """A sign-up page: its template's look and form, and whether it is `open`."""

    slug: str
    template_id: str
    organization_id: str
    environment: str
    organization_name: str
    definition: dict[str, Any]
    open: bool
    fields: list[rules.FormField] = field(default_factory=list)

    @property
    def consent(self) -> str | None:
        """The consent sentence the visitor must tick, if any."""
        return (rules.settings(self.definition) or {}).get("consent")


@dataclass(frozen=True)
class Outcome:
    """What a sign-up did: `issued` a pass (its `distribution_url`), or found the address
    `already` signed up and `emailed` its pass (or could not)."""

    kind: str  # issued | already
    distribution_url: str | None = None
    emailed: bool = False


class Closed(ServiceError):
    """Sign-ups on this page are closed (off, archived template, replaced link)."""

    default_code = "enrollment_closed"


class Unavailable(ServiceError):
    """The page is open but cannot issue now: a live link of an organization without the
    live credentials its wallets need (staff see why on the dashboard)."""

    default_code = "enrollment_unavailable"


def page(slug: str) -> Page:
    """The page behind `slug` (open or closed).

    :raises NotFound: no such link, ever.
    """
    link = db.session.get(EnrollmentLink, slug) if len(slug) <= 40 else None
    if link is None:
        raise NotFound("No such sign-up page.")
    template = db.session.get(Template, link.template_id)
    assert template is not None  # links go with their template
    definition = revisions.definition_of(template.id, template.revision) or {}
    organization = db.session.get(Organization, template.organization_id)
    is_open = (link.retired_at is None and not template.archived
               and rules.enabled(definition))
    return Page(slug, template.id, template.organization_id, link.environment,
                str(definition.get("organizationName") or (organization.name if organization
                                                            else "")),
                definition, is_open, rules.form_fields(definition) if is_open else [])


def viewed(p: Page) -> None:
    """Count a look at an open sign-up page (insights' funnel)."""
    with transaction() as session:
        insights.signup_viewed(session, p.organization_id, p.environment, p.template_id)


def check(p: Page, form: dict[str, str], consented: bool) -> dict[str, str]:
    """The form's problems: input name -> message key (`required`, `invalid_email`,
    `too_long`, `invalid_text`, `consent`); empty when it can be sent."""
    problems: dict[str, str] = {}
    for f in p.fields:
        value = form.get(f.key, "").strip()
        if problem(value) is not None:
            problems[f.key] = "invalid_text"
        elif not value:
            if f.required:
                problems[f.key] = "required"
        elif f.key == "holderEmail" and not sending.is_address(value):
            problems[f.key] = "invalid_email"
        elif len(value) > (MAX_NAME if f.key == "holderName" else 500):
            problems[f.key] = "too_long"
    if p.consent and not consented:
        problems["consent"] = "consent"
    return problems


def sign_up(p: Page, form: dict[str, str], locale: str) -> Outcome:
    """Issue the person's pass (source `enrollment`), or email them the one they have.

    :raises Closed: the page no longer takes sign-ups.
    :raises Unavailable: the pass cannot be signed now (live credentials missing).
    :raises InvalidRequest: a value the template refuses (`param` names the form's input).
    """
    ctx = Context(p.organization_id, p.environment, actor="enrollment")
    email = form["holderEmail"].strip()
    key = hashlib.sha256(f"{p.template_id}:{rules.normalize_email(email)}".encode()).hexdigest()
    with transaction() as session:
        current = page(p.slug)  # read again in the write transaction: closed meanwhile?
        if not current.open:
            raise Closed("Sign-ups are closed.")
        claim = _INSERT[session.get_bind().dialect.name].values(
            template_id=p.template_id, environment=p.environment, email_hash=key,
            organization_id=p.organization_id, pass_id=None)
        claimed = changed_rows(session, claim) == 1
        row_key = (Enrollment.template_id == p.template_id,
                   Enrollment.environment == p.environment, Enrollment.email_hash == key)
        existing = None if claimed else session.scalar(
            select(Pass).join(Enrollment, Enrollment.pass_id == Pass.id).where(*row_key))
        if existing is not None and existing.status == "active":
            return Outcome("already", emailed=_email(ctx, existing.id, email, locale))
        item = _issue(ctx, current, form)
        consent = current.consent
        session.execute(update(Enrollment).where(*row_key).values(
            pass_id=item.id, consent=consent, consented_at=clock.now() if consent else None)
            .execution_options(synchronize_session=False))
        insights.signed_up(session, item)
    emailed = _email(ctx, item.id, email, locale)
    return Outcome("issued", views.distribution_url(item.short_id), emailed)


def _insert(dialect: Any) -> Any:
    return dialect.insert(Enrollment).on_conflict_do_nothing(
        index_elements=["template_id", "environment", "email_hash"])


_INSERT = {"postgresql": _insert(postgresql), "sqlite": _insert(sqlite)}


def _issue(ctx: Context, p: Page, form: dict[str, str]) -> Pass:
    values = {f.key: _typed(form.get(f.key, "").strip(), f.format) for f in p.fields
              if f.key not in rules.HOLDER_KEYS and form.get(f.key, "").strip()}
    try:
        return issuing.issue(ctx, issuing.IssueRequest(
            template_id=p.template_id, field_values=values,
            holder_name=form.get("holderName", "").strip() or None,
            holder_email=form["holderEmail"].strip()))
    except Unprocessable as exc:  # nothing the visitor typed: the issuer's set-up
        raise Unavailable(exc.message, code=exc.code) from None
    except InvalidRequest as exc:  # a value the field's format refuses: beside its input
        param = exc.param or ""
        raise InvalidRequest(exc.message, code=exc.code,
                             param=param.removeprefix("fieldValues.")) from None


def _typed(raw: str, fmt: str) -> str | int | float:
    """A number field's input as a number (the issuing rules check the rest)."""
    if fmt != "number":
        return raw
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number.is_integer() and "." not in raw else number


def _email(ctx: Context, pass_id: str, to: str, locale: str) -> bool:
    """Queue an email of the pass to `to`; False when email cannot go (not configured, in
    test to someone who is no member, over the hour's limit)."""
    try:
        sending.send(ctx, pass_id, to=to, locale=locale)
    except (Unprocessable, RateLimited, InvalidRequest):
        return False
    return True
