"""Download links: create (the URL is shown once), list, revoke."""

from __future__ import annotations

from typing import Any

from flask import Response, g

from webapp.api import bp
from webapp.api import pass_schemas as s
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.api.schemas import PageQuery, list_envelope
from webapp.services.passes import download_links

_listed = s.DownloadLink(exclude=("url",))


@bp.post("/passes/<pass_id>/download-links")
@doc("Create download link", permission=("download_links", "write"),
     body=s.DownloadLinkCreate, response=s.DownloadLink, status=201,
     errors=(404,))
@idempotent
def create_download_link(pass_id: str) -> Any:
    p = load(s.DownloadLinkCreate(), json_body(optional=True))
    link = download_links.create(g.ctx, pass_id, p["expiresInSeconds"])
    return s.DownloadLink().dump(link), 201


@bp.get("/passes/<pass_id>/download-links")
@doc("List download links", permission=("download_links", "read"),
     query=PageQuery, response=s.DownloadLink, many=True,
     errors=(404,))
def list_download_links(pass_id: str) -> Any:
    q = query(PageQuery())
    page = download_links.list_for_pass(g.ctx, pass_id, limit=q["limit"],
                                         cursor=q.get("cursor"))
    return list_envelope(_listed, page)


@bp.delete("/download-links/<link_id>")
@doc("Revoke download link", permission=("download_links", "write"), status=204, errors=(404,))
@idempotent
def revoke_download_link(link_id: str) -> Any:
    download_links.revoke(g.ctx, link_id)
    return Response(status=204)
