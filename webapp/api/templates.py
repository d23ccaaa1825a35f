"""/v1/templates: create, list, get, update, archive, unarchive, duplicate."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp, schemas
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.services.enrollment import links
from webapp.services.templates import revisions

_one_schema = schemas.Template()
_item = schemas.Template(exclude=("definition",))


class _One:
    """The template's answer with its `enrollmentUrl` for the key's environment."""

    @staticmethod
    def dump(template: Any) -> Any:
        links.attach(g.ctx, [template])
        return _one_schema.dump(template)


_one = _One()


@bp.post("/templates")
@doc("Create template", permission=("templates", "write"),
     body=schemas.TemplateCreate, response=schemas.Template, status=201)
@idempotent
def create_template() -> Any:
    p = load(schemas.TemplateCreate(), json_body())
    return _one.dump(revisions.create(g.ctx, p["name"], p["type"], p["definition"])), 201


@bp.get("/templates")
@doc("List templates", permission=("templates", "read"),
     query=schemas.TemplateListQuery, response=schemas.Template, many=True)
def list_templates() -> Any:
    q = query(schemas.TemplateListQuery())
    page = revisions.list_(g.ctx, type_=q.get("type"), archived=q["archived"], limit=q["limit"],
                           cursor=q.get("cursor"))
    links.attach(g.ctx, page.data)
    return schemas.list_envelope(_item, page)


@bp.get("/templates/<template_id>")
@doc("Get template", permission=("templates", "read"), response=schemas.Template, errors=(404,))
def get_template(template_id: str) -> Any:
    return _one.dump(revisions.get(g.ctx, template_id))


@bp.patch("/templates/<template_id>")
@doc("Update template", permission=("templates", "write"),
     body=schemas.TemplateUpdate, response=schemas.Template,
     errors=(404, 409))
@idempotent
def update_template(template_id: str) -> Any:
    p = load(schemas.TemplateUpdate(), json_body())
    return _one.dump(revisions.update(g.ctx, template_id, p["expectedRevision"],
                                      name=p.get("name"), definition=p.get("definition"),
                                      settings=p.get("settings")))


@bp.delete("/templates/<template_id>")
@doc("Archive template", permission=("templates", "write"),
     response=schemas.Template, errors=(404,))
@idempotent
def archive_template(template_id: str) -> Any:
    return _one.dump(revisions.set_archived(g.ctx, template_id, True))


@bp.post("/templates/<template_id>/unarchive")
@doc("Unarchive template", permission=("templates", "write"),
     response=schemas.Template, errors=(404,))
@idempotent
def unarchive_template(template_id: str) -> Any:
    return _one.dump(revisions.set_archived(g.ctx, template_id, False))


@bp.post("/templates/<template_id>/duplicate")
@doc("Duplicate template", permission=("templates", "write"),
     body=schemas.TemplateDuplicate, response=schemas.Template,
     status=201, errors=(404,))
@idempotent
def duplicate_template(template_id: str) -> Any:
    p = load(schemas.TemplateDuplicate(), json_body(optional=True))
    return _one.dump(revisions.duplicate(g.ctx, template_id, p.get("name"))), 201


@bp.post("/templates/<template_id>/enrollment-link")
@doc("Replace sign-up link", permission=("templates", "write"),
     response=schemas.Template, errors=(404, 409))
@idempotent
def replace_enrollment_link(template_id: str) -> Any:
    """A new enrollmentUrl for the key's environment; the old link's page says sign-ups are
    closed (409 enrollment_disabled when sign-ups are off, template_archived)."""
    links.replace(g.ctx, template_id)
    return _one.dump(revisions.get(g.ctx, template_id))
