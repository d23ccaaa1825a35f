"""The explicit context every service function takes instead of reading the request."""

from __future__ import annotations

from dataclasses import dataclass

ENVIRONMENTS = ("test", "live")


@dataclass(frozen=True)
class Context:
    """Who acts, for which organization and environment, under which request ID."""

    organization_id: str
    environment: str  # test | live
    actor: str = "api"  # api | dashboard | cli | job
    request_id: str | None = None
    user_id: str | None = None
    api_key_id: str | None = None

    @property
    def source(self) -> str:
        """What created a pass: `dashboard` for staff in the browser, else `api`."""
        return "dashboard" if self.actor == "dashboard" else "api"
