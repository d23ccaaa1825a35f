"""`GET /assets/<asset_id>`: public image bytes (Google fetches images by URL)."""

from __future__ import annotations

from flask import Response, abort, request

from webapp.distribution import bp
from webapp.errors import NotFound
from webapp.services.templates import assets

_IMMUTABLE = "public, max-age=31536000, immutable"


@bp.get("/assets/<asset_id>")
def asset_bytes(asset_id: str) -> Response:
    try:
        content_type, data, digest = assets.public_bytes(asset_id)
    except NotFound:
        abort(404)
    etag = f'"{digest}"'
    # Weak comparison, lists and `*` (RFC 9110 section 13.1.2), not only the exact header.
    if request.if_none_match.contains_weak(digest):
        return Response(status=304, headers={"ETag": etag, "Cache-Control": _IMMUTABLE})
    return Response(data, mimetype=content_type, headers={
        "ETag": etag, "Cache-Control": _IMMUTABLE, "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
    })
