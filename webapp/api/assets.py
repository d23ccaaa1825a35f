"""/v1/assets: upload an image (base64 in JSON) and read its description."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from flask import current_app, g

from webapp.api import bp, schemas
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load
from webapp.errors import InvalidRequest, PayloadTooLarge
from webapp.services.templates import assets


def _dump(asset: Any) -> dict[str, Any]:
    asset.url = f"{current_app.config['BASE_URL']}/assets/{asset.id}"
    return schemas.Asset().dump(asset)


# A 5 MiB file in base64 and the JSON around it.
MAX_UPLOAD_BODY = (assets.MAX_BYTES + 2) // 3 * 4 + 4096


def _decode(data: str) -> bytes:
    # 5 MiB of file is at most 6,990,508 base64 characters; anything longer is too large.
    if len(data) > (assets.MAX_BYTES + 2) // 3 * 4:
        raise PayloadTooLarge("The file is larger than 5 MiB.", param="data")
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidRequest("data must be a base64-encoded file.", code="invalid_base64",
                             param="data") from None


@bp.post("/assets")
@doc("Upload asset", permission=("assets", "write"),
     body=schemas.AssetCreate, response=schemas.Asset, status=201,
     errors=(413,))
@idempotent
def upload_asset() -> Any:
    p = load(schemas.AssetCreate(), json_body(max_bytes=MAX_UPLOAD_BODY))
    return _dump(assets.upload(g.ctx, p["slot"], _decode(p["data"]))), 201


@bp.get("/assets/<asset_id>")
@doc("Get asset", permission=("assets", "read"), response=schemas.Asset, errors=(404,))
def get_asset(asset_id: str) -> Any:
    return _dump(assets.get(g.ctx, asset_id))
