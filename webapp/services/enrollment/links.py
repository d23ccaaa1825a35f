"""A template's sign-up links: one current `/join/<slug>` per environment, made when the
template first opens sign-ups, replaced by staff (the old slug's page then says sign-ups are
closed). A template's `enrollmentUrl` is its current link in the caller's environment, null
while its definition does not open sign-ups.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select, update

from webapp import clock, settings
from webapp.db.find import find_or_404
from webapp.db.transaction import transaction
from webapp.domain import enrollment as rules
from webapp.errors import Conflict
from webapp.extensions import db
from webapp.models import EnrollmentLink, Template, TemplateRevision
from webapp.services.context import ENVIRONMENTS, Context
from webapp.wallets import barcodes

SLUG_BYTES = 12  # 16 URL-safe characters: 96 bits, not guessable


def new_slug() -> str:
    """A fresh random slug (16 characters of A-Z a-z 0-9 - _)."""
    return secrets.token_urlsafe(SLUG_BYTES)


def url(slug: str) -> str:
    """The sign-up page's public address."""
    return f"{settings.get('BASE_URL')}/join/{slug}"


def ensure(template: Template, definition: dict[str, Any]) -> None:
    """Give the template a link in each environment once its definition opens sign-ups
    (in the caller's transaction); a link it has already is kept."""
    if not rules.enabled(definition):
        return
    have = set(db.session.scalars(select(EnrollmentLink.environment).where(
        EnrollmentLink.template_id == template.id, EnrollmentLink.retired_at.is_(None))))
    for environment in ENVIRONMENTS:
        if environment not in have:
            db.session.add(EnrollmentLink(
                slug=new_slug(), template_id=template.id, environment=environment,
                organization_id=template.organization_id, created_at=clock.now()))
    db.session.flush()


def current(template_id: str, environment: str) -> str | None:
    """The template's current slug in `environment`, if it has one."""
    return db.session.scalar(select(EnrollmentLink.slug).where(
        EnrollmentLink.template_id == template_id, EnrollmentLink.environment == environment,
        EnrollmentLink.retired_at.is_(None)))


def attach(ctx: Context, templates: Iterable[Template]) -> None:
    """Set each template's `enrollment_url` for the context's environment (one query)."""
    items = list(templates)
    slugs = dict(db.session.execute(select(EnrollmentLink.template_id, EnrollmentLink.slug)
                                    .where(EnrollmentLink.template_id.in_([t.id for t in items]),
                                           EnrollmentLink.environment == ctx.environment,
                                           EnrollmentLink.retired_at.is_(None))).all()
                 ) if items else {}
    for template in items:
        slug = slugs.get(template.id)  # no link: never opened, no definition to read
        enabled = slug is not None and rules.enabled(template.definition
                                                     or _definition(template))
        template.enrollment_url = url(slug) if slug and enabled else None


def _definition(template: Template) -> dict[str, Any]:
    return db.session.scalar(select(TemplateRevision.definition).where(
        TemplateRevision.template_id == template.id,
        TemplateRevision.revision == template.revision)) or {}


def replace(ctx: Context, template_id: str) -> None:
    """A new sign-up link for the template in the context's environment; the old one stops
    working (its page says sign-ups are closed).

    :raises NotFound: no such template.
    :raises Conflict: the template does not open sign-ups (`enrollment_disabled`), or is
        archived (`template_archived`).
    """
    with transaction() as session:
        template = find_or_404(Template, template_id, prefix="tmpl", what="template",
                               organization_id=ctx.organization_id)
        if template.archived:
            raise Conflict("Archived templates take no sign-ups; unarchive it first.",
                           code="template_archived")
        if not rules.enabled(_definition(template)):
            raise Conflict("This template does not take sign-ups: set definition.enrollment."
                           "enabled to true first.", code="enrollment_disabled")
        session.execute(update(EnrollmentLink).where(
            EnrollmentLink.template_id == template.id,
            EnrollmentLink.environment == ctx.environment,
            EnrollmentLink.retired_at.is_(None)).values(retired_at=clock.now())
            .execution_options(synchronize_session=False))
        session.add(EnrollmentLink(slug=new_slug(), template_id=template.id,
                                   environment=ctx.environment,
                                   organization_id=template.organization_id,
                                   created_at=clock.now()))


def qr(address: str) -> str:
    """The QR code of a sign-up link, as an inline `<svg>` (a poster prints it)."""
    return barcodes.qr(address, label="QR code of the sign-up page")
