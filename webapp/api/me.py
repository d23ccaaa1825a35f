"""`GET /v1/me`: the organization, environment and permissions of the key (any valid key)."""

from __future__ import annotations

from typing import Any

from webapp.api import bp, schemas
from webapp.api.auth import current_context
from webapp.api.openapi import ANY_KEY, doc


@bp.get("/me")
@doc("Check key", permission=ANY_KEY, response=schemas.Me)
def me() -> Any:
    return schemas.Me().dump(current_context())
