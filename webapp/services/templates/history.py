"""A template's revision history (newest first), what changed between two revisions, and
restoring an old revision as a new one."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from webapp.domain import definition_diff
from webapp.errors import NotFound
from webapp.extensions import db
from webapp.models import Pass, Template, TemplateRevision
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


def passes_on_older_revisions(ctx: Context, template_id: str) -> int:
    """How many active passes of the context's environment show an older revision of the
    template than its current one (what "update all to the latest design" would move).

    :raises NotFound: no such template in this organization.
    """
    template = template_revisions.get(ctx, template_id)
    return db.session.scalar(select(func.count()).select_from(Pass).where(
        Pass.template_id == template.id, Pass.organization_id == ctx.organization_id,
        Pass.environment == ctx.environment, Pass.status == "active",
        Pass.template_revision < template.revision)) or 0


MAX_REVISION = 2**31 - 1  # past any revision there can be (and what a column holds)


def definition(ctx: Context, template_id: str, revision: int) -> dict[str, Any]:
    """The definition of one revision; any number may be asked for.

    :raises NotFound: no such template or revision.
    """
    if not 1 <= revision <= MAX_REVISION:
        raise NotFound(f"Template {template_id} has no revision {revision}.")
    return template_revisions.get_revision(ctx, template_id, revision)


def compare(ctx: Context, template_id: str, before: int, after: int
            ) -> list[definition_diff.Change]:
    """What changed from revision `before` to revision `after` (either may be the older).

    :raises NotFound: no such template or revision.
    """
    return definition_diff.diff(definition(ctx, template_id, before),
                                definition(ctx, template_id, after))


def restore(ctx: Context, template_id: str, revision: int, expected_revision: int) -> Template:
    """Make an old revision's design the current one, as a new revision: an update like any
    other, so an archived template, a stale `expected_revision` or a design that breaks
    today's rules is refused the same way. A design equal to the current one makes no
    new revision.

    :raises NotFound: no such template or revision.
    :raises Conflict: archived (`template_archived`) or stale (`stale_revision`).
    :raises InvalidDefinition: the old design does not pass today's checks.
    """
    old = definition(ctx, template_id, revision)
    return template_revisions.update(ctx, template_id, expected_revision,
                                     definition=copy.deepcopy(old))
