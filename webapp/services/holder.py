"""What a holder's page shows: the pass behind a short ID or a download-link token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from webapp.errors import NotFound
from webapp.extensions import db
from webapp.models import Organization, Pass, Template
from webapp.services import download_links, pass_views, templates


@dataclass(frozen=True)
class HolderPage:
    """A pass ready to show, or why it is gone (`voided`, `expired`, `revoked`)."""

    pass_: Pass | None
    organization_name: str | None
    gone: str | None = None

    @property
    def preview(self) -> dict[str, Any]:
        return self.pass_.preview if self.pass_ is not None and self.pass_.preview else {}


def by_short_id(short_id: str) -> HolderPage:
    """The page of a pass's permanent link.

    :raises NotFound: no pass has this short ID.
    """
    item = None
    if isinstance(short_id, str) and len(short_id) == 12:
        item = db.session.scalar(select(Pass).where(Pass.short_id == short_id.upper()))
    if item is None:
        raise NotFound("No such pass.")
    return _page(item)


def by_token(token: str) -> HolderPage:
    """The page behind a download link.

    :raises NotFound: no link has this token.
    """
    resolved = download_links.resolve(token)
    if resolved.pass_ is None:
        return HolderPage(None, None, resolved.gone)
    return _page(resolved.pass_)


def _page(item: Pass) -> HolderPage:
    if item.status == "voided":
        return HolderPage(None, None, "voided")
    definition = templates.definition_of(item.template_id, item.template_revision)
    template_name = db.session.scalar(select(Template.name).where(
        Template.id == item.template_id))
    organization = db.session.get(Organization, item.organization_id)
    pass_views.attach(item, template_name, definition or {})
    name = (definition or {}).get("organizationName") or (organization.name if organization
                                                           else None)
    return HolderPage(item, name)
