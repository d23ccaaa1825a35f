"""Templates: create, list, get, update (new revision), archive, unarchive, duplicate."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy import update as sql_update

from webapp import clock, ids
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import changed_rows, transaction
from webapp.domain import definition as rules
from webapp.domain import definition_read
from webapp.errors import Conflict, InvalidDefinition, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import Asset, Template, TemplateRevision
from webapp.services.context import Context
from webapp.services.credentials import identities
from webapp.services.enrollment import links


def create(ctx: Context, name: str, type_: str, definition: dict[str, Any]) -> Template:
    """A new template at revision 1.

    :raises InvalidRequest: bad name or type.
    :raises InvalidDefinition: the definition has problems (all of them listed).
    """
    _check_name(name)
    _check_type(type_)
    with transaction() as session:
        _validate(ctx, definition, type_)
        now = clock.now()  # one moment: a new template's createdAt equals its updatedAt
        template = Template(id=ids.new_id("tmpl"), organization_id=ctx.organization_id,
                            type=type_, name=name, revision=1, archived=False,
                            created_at=now, updated_at=now)
        session.add(template)
        session.flush()
        _add_revision(template, definition)
        links.ensure(template, definition)
    return _attach(template, definition)


def list_(ctx: Context, *, type_: str | None = None, archived: bool = False,
          limit: int = pagination.DEFAULT_LIMIT, cursor: str | None = None
          ) -> pagination.Page[Template]:
    """Templates of the organization, newest first (without definitions).

    :raises InvalidRequest: bad type, limit or cursor.
    """
    if type_ is not None:
        _check_type(type_)
    scope = select(Template.id).where(Template.organization_id == ctx.organization_id)
    query = select(Template).where(Template.organization_id == ctx.organization_id,
                                   Template.archived.is_(archived))
    if type_ is not None:
        query = query.where(Template.type == type_)
    page = pagination.paginate(query, Template.id, scope, limit=limit, cursor=cursor)
    for template in page.data:
        template.required_fields = []
    return page


def get(ctx: Context, template_id: str) -> Template:
    """The template with its current definition and required fields.

    :raises NotFound: no such template in this organization.
    """
    template = _find(ctx, template_id)
    return _attach(template, _definition(template.id, template.revision))


def get_revision(ctx: Context, template_id: str, revision: int) -> dict[str, Any]:
    """The definition of one revision.

    :raises NotFound: no such template or revision.
    """
    template = _find(ctx, template_id)
    definition = db.session.scalar(select(TemplateRevision.definition).where(
        TemplateRevision.template_id == template.id, TemplateRevision.revision == revision))
    if definition is None:
        raise NotFound(f"Template {template_id} has no revision {revision}.")
    return definition


def update(ctx: Context, template_id: str, expected_revision: int, *, name: str | None = None,
           definition: dict[str, Any] | None = None,
           settings: dict[str, str | None] | None = None) -> Template:
    """Rename, change settings and/or replace the design; a changed definition makes a new
    revision (name and settings do not).

    :raises NotFound: no such template.
    :raises Conflict: archived (`template_archived`) or stale (`stale_revision`).
    :raises InvalidDefinition: the new definition has problems.
    :raises InvalidRequest: a settings credential is not the organization's.
    """
    if name is not None:
        _check_name(name)
    with transaction() as session:
        template = _find(ctx, template_id)
        if template.archived:
            raise Conflict("Archived templates cannot be changed; unarchive it first.",
                           code="template_archived")
        if expected_revision != template.revision:
            raise Conflict(
                f"expectedRevision {expected_revision} is not the current revision "
                f"({template.revision}); reload the template and apply your change again.",
                code="stale_revision", param="expectedRevision")
        current = _definition(template.id, template.revision)
        changed_design = False
        if definition is not None and definition != current:
            changed_design = True
            _validate(ctx, definition, template.type)
            bumped = changed_rows(
                session,
                sql_update(Template)
                .where(Template.id == template.id, Template.revision == expected_revision)
                .values(revision=expected_revision + 1)
                .execution_options(synchronize_session=False))
            if bumped != 1:
                raise Conflict("The template changed while this update was saved; retry.",
                               code="stale_revision", param="expectedRevision")
            template.revision = expected_revision + 1
            _add_revision(template, definition)
            links.ensure(template, definition)
            current = definition
        changed_settings = _apply_settings(ctx, template, settings or {})
        if changed_design or changed_settings or (name is not None and name != template.name):
            template.name = name if name is not None else template.name
            template.updated_at = clock.now()
    return _attach(template, current)


def _apply_settings(ctx: Context, template: Template, settings: dict[str, str | None]) -> bool:
    """Set the default live credentials named in `settings`; True when one changed.

    :raises InvalidRequest: a named certificate or issuer is not the organization's.
    """
    changed = False
    for member, attribute, find, what in (
        ("appleCertificateId", "apple_certificate_id", identities.find_certificate,
         "Apple certificate"),
        ("googleIssuerId", "google_issuer_id", identities.find_issuer, "Google issuer"),
    ):
        if member not in settings:
            continue
        value = settings[member]
        if value is not None and find(ctx.organization_id, value) is None:
            raise InvalidRequest(f"No {what} {value} in this organization.",
                                 code="parameter_invalid", param=f"settings.{member}")
        if getattr(template, attribute) != value:
            setattr(template, attribute, value)
            changed = True
    return changed


def set_archived(ctx: Context, template_id: str, archived: bool) -> Template:
    """Archive or unarchive (doing it twice changes nothing).

    :raises NotFound: no such template.
    """
    with transaction():
        template = _find(ctx, template_id)
        if template.archived != archived:
            template.archived = archived
            template.updated_at = clock.now()
    return get(ctx, template_id)


def duplicate(ctx: Context, template_id: str, name: str | None = None) -> Template:
    """A new active template at revision 1 with the original's current design.

    :raises NotFound: no such template.
    :raises InvalidRequest: name empty or over 100 characters.
    """
    if name is not None:
        _check_name(name)
    with transaction() as session:
        original = _find(ctx, template_id)
        definition = _definition(original.id, original.revision)
        copy_ = Template(
            id=ids.new_id("tmpl"), organization_id=ctx.organization_id, type=original.type,
            name=name if name else ("Copy of " + original.name)[:100], revision=1,
            archived=False, apple_certificate_id=original.apple_certificate_id,
            google_issuer_id=original.google_issuer_id,
        )
        session.add(copy_)
        session.flush()
        _add_revision(copy_, definition)
        links.ensure(copy_, definition)
    return _attach(copy_, definition)


def _find(ctx: Context, template_id: str) -> Template:
    return find_or_404(Template, template_id, prefix="tmpl", what="template",
                       organization_id=ctx.organization_id)


_REVISIONS: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_REVISIONS_MAX = 4096
_revisions_lock = threading.Lock()


def definition_of(template_id: str, revision: int) -> dict[str, Any] | None:
    """A revision's definition. Revisions never change, so each process keeps the recent
    ones; callers must not modify the dict they get."""
    key = (template_id, revision)
    with _revisions_lock:
        if key in _REVISIONS:
            _REVISIONS.move_to_end(key)
            return _REVISIONS[key]
    definition = db.session.scalar(select(TemplateRevision.definition).where(
        TemplateRevision.template_id == template_id, TemplateRevision.revision == revision))
    if definition is not None:
        with _revisions_lock:
            _REVISIONS[key] = definition
            if len(_REVISIONS) > _REVISIONS_MAX:
                _REVISIONS.popitem(last=False)
    return definition


def _definition(template_id: str, revision: int) -> dict[str, Any]:
    definition = definition_of(template_id, revision)
    assert definition is not None, "every template has its current revision"
    return definition


def _attach(template: Template, definition: dict[str, Any]) -> Template:
    template.definition = copy.deepcopy(definition)
    template.required_fields = definition_read.required_fields(definition)
    return template


def _add_revision(template: Template, definition: dict[str, Any]) -> None:
    db.session.add(TemplateRevision(id=ids.new_id("trev"), template_id=template.id,
                                    revision=template.revision, definition=definition))


def _validate(ctx: Context, definition: Any, type_: str) -> None:
    issues = rules.validate(definition, type_)
    if not issues:
        issues = _image_issues(ctx, definition_read.image_refs(definition))
    if issues:
        raise InvalidDefinition(issues)


def _image_issues(ctx: Context, refs: dict[str, str]) -> list[dict[str, str]]:
    if not refs:
        return []
    found = dict(db.session.execute(select(Asset.id, Asset.slot).where(
        Asset.id.in_(refs.values()), Asset.organization_id == ctx.organization_id)).all())
    issues = []
    for slot, asset_id in refs.items():
        path = f"/images/{slot}"
        if asset_id not in found:
            issues.append({"path": path, "code": "asset_not_found",
                           "message": f"No asset {asset_id} in this organization."})
        elif found[asset_id] != slot:
            issues.append({"path": path, "code": "asset_slot_mismatch",
                           "message": f"Asset {asset_id} was uploaded for the "
                                      f"{found[asset_id]} slot, not {slot}."})
    return issues


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise InvalidRequest("name must be 1 to 100 characters.", param="name")


def _check_type(type_: object) -> None:
    if type_ not in rules.TEMPLATE_TYPES:
        raise InvalidRequest(f"type must be one of {', '.join(rules.TEMPLATE_TYPES)}.",
                             param="type")
