"""A template's revision history (newest first), for the dashboard."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from webapp.extensions import db
from webapp.models import TemplateRevision
from webapp.services.context import Context
from webapp.services.templates import revisions as template_revisions


@dataclass(frozen=True)
class RevisionInfo:
    revision: int
    created_at: datetime


def revisions(ctx: Context, template_id: str) -> list[RevisionInfo]:
    """Every revision of the template, newest first.

    :raises NotFound: no such template in this organization.
    """
    template = template_revisions.get(ctx, template_id)
    rows = db.session.execute(
        select(TemplateRevision.revision, TemplateRevision.created_at)
        .where(TemplateRevision.template_id == template.id)
        .order_by(TemplateRevision.revision.desc())).all()
    return [RevisionInfo(*row) for row in rows]
