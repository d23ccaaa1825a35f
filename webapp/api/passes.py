"""/v1/passes: issue, list, get, update, void; their own images; update history; sending by
email."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import pass_schemas as s
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.api.schemas import PageQuery, list_envelope
from webapp.i18n import select_locale
from webapp.services.email import sending
from webapp.services.passes import changes, images, issuing, queries

_item = s.Pass(exclude=s.PASS_LIST_EXCLUDE)
_update = s.PassUpdate()
_create = s.PassCreate()
_change = s.PassUpdateBody()
_send = s.PassSend()
_image = s.PassImageBody()
_email = s.Email()


@bp.post("/passes")
@doc("Issue pass", permission=("passes", "write"),
     body=s.PassCreate, response=s.Pass, status=201, errors=(404, 422))
@idempotent
def issue_pass() -> Any:
    p = load(_create, json_body())
    req = issuing.IssueRequest(template_id=p["templateId"], email_locale=select_locale(),
                               **issue_arguments(p))
    return s.dump_pass(issuing.issue(g.ctx, req)), 201


def issue_arguments(p: dict[str, Any]) -> dict[str, Any]:
    """A loaded `PassCreate` body as `IssueRequest` arguments, but for the template and the
    email's language (also a bulk job's issue items)."""
    return {"field_values": p["fieldValues"], "holder_name": p.get("holderName"),
            "holder_email": p.get("holderEmail"), "barcode_value": p.get("barcodeValue"),
            "platforms": p.get("platforms"), "revision": p.get("revision"),
            "certificate_id": p.get("certificateId"),
            "google_issuer_id": p.get("googleIssuerId"), "send_email": p["send"],
            "expires_at": p.get("expiresAt"), "relevant_date": p.get("relevantDate"),
            "balance": p.get("balance"), "tags": p.get("tags")}


@bp.get("/passes")
@doc("List passes", permission=("passes", "read"),
     query=s.PassListQuery, response=s.Pass, many=True)
def list_passes() -> Any:
    q = query(s.PassListQuery())
    page = queries.list_(g.ctx, template_id=q.get("templateId"), status=q.get("status"),
                         source=q.get("source"), search=q.get("search"), tag=q.get("tag"),
                         limit=q["limit"], cursor=q.get("cursor"))
    return list_envelope(_item, page)


@bp.get("/passes/<pass_id>")
@doc("Get pass", permission=("passes", "read"), response=s.Pass, errors=(404,))
def get_pass(pass_id: str) -> Any:
    return s.dump_pass(queries.get(g.ctx, pass_id))


@bp.patch("/passes/<pass_id>")
@doc("Update pass", permission=("passes", "write"),
     body=s.PassUpdateBody, response=s.PassWithUpdate, errors=(404, 409))
@idempotent
def update_pass(pass_id: str) -> Any:
    p = load(_change, json_body())
    done = changes.update(g.ctx, pass_id, p.get("fieldValues"), p["notificationMode"],
                          update_dates(p), p.get("tags"))
    return {"pass": s.dump_pass(done.pass_), "update": _update.dump(done.update)}


def update_dates(p: dict[str, Any]) -> dict[str, str | None]:
    """The dates a loaded `PassUpdateBody` sends (null: clear; also bulk update items)."""
    return {name: p[name] for name in ("expiresAt", "relevantDate") if name in p}


@bp.put("/passes/<pass_id>/images/<slot>")
@doc("Set pass image", permission=("passes", "write"),
     body=s.PassImageBody, response=s.PassWithUpdate, errors=(404, 409))
@idempotent
def put_pass_image(pass_id: str, slot: str) -> Any:
    p = load(_image, json_body())
    done = images.put(g.ctx, pass_id, slot, p["assetId"])
    return {"pass": s.dump_pass(done.pass_), "update": _update.dump(done.update)}


@bp.delete("/passes/<pass_id>/images/<slot>")
@doc("Remove pass image", permission=("passes", "write"),
     response=s.PassWithUpdate, errors=(404, 409))
@idempotent
def delete_pass_image(pass_id: str, slot: str) -> Any:
    done = images.delete(g.ctx, pass_id, slot)
    return {"pass": s.dump_pass(done.pass_), "update": _update.dump(done.update)}


@bp.delete("/passes/<pass_id>")
@doc("Void pass", permission=("passes", "write"), response=s.Pass, errors=(404, 409))
@idempotent
def void_pass(pass_id: str) -> Any:
    return s.dump_pass(changes.void(g.ctx, pass_id))


@bp.get("/passes/<pass_id>/updates")
@doc("List pass updates", permission=("passes", "read"),
     query=PageQuery, response=s.PassUpdate, many=True, errors=(404,))
def list_pass_updates(pass_id: str) -> Any:
    q = query(PageQuery())
    page = queries.list_updates(g.ctx, pass_id, limit=q["limit"], cursor=q.get("cursor"))
    return list_envelope(_update, page)


@bp.get("/pass-updates/<update_id>")
@doc("Get pass update", permission=("passes", "read"), response=s.PassUpdate, errors=(404,))
def get_pass_update(update_id: str) -> Any:
    return _update.dump(queries.get_update(g.ctx, update_id))


@bp.post("/passes/<pass_id>/send")
@doc("Send pass by email", permission=("passes", "write"),
     body=s.PassSend, response=s.Email, status=202, errors=(404, 422))
@idempotent
def send_pass(pass_id: str) -> Any:
    p = load(_send, json_body(optional=True))
    email = sending.send(g.ctx, pass_id, to=p.get("to"),
                         locale=p.get("locale") or select_locale())
    return s.dump_email(email), 202


@bp.get("/passes/<pass_id>/emails")
@doc("List pass emails", permission=("passes", "read"),
     query=PageQuery, response=s.Email, many=True, errors=(404,))
def list_pass_emails(pass_id: str) -> Any:
    q = query(PageQuery())
    page = sending.list_for_pass(g.ctx, pass_id, limit=q["limit"], cursor=q.get("cursor"))
    return list_envelope(_email, page)
