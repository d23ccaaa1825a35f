"""The explicit context every service function takes instead of reading the request."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

ENVIRONMENTS = ("test", "live")


@dataclass(frozen=True)
class Context:
    """Who acts, for which organization and environment, under which request ID."""

    organization_id: str
    environment: str  # test | live
    actor: str = "api"  # api | dashboard | cli | job | enrollment
    request_id: str | None = None
    user_id: str | None = None
    api_key_id: str | None = None
    # A restricted key's level per resource (webapp.domain.permissions); None: full access.
    permissions: Mapping[str, str] | None = field(default=None, hash=False)

    @property
    def source(self) -> str:
        """What created a pass: `dashboard` for staff in the browser, `enrollment` for a
        person on a sign-up page, else `api`."""
        return self.actor if self.actor in ("dashboard", "enrollment") else "api"
