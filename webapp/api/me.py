"""`GET /v1/me`: the organization and environment of the key."""

from __future__ import annotations

from typing import Any

from webapp.api import bp, schemas
from webapp.api.auth import current_context
from webapp.api.openapi import doc


@bp.get("/me")
@doc("Check key", response=schemas.Me)
def me() -> Any:
    return schemas.Me().dump(current_context())
