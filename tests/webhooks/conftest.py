"""Webhook tests: jobs run inline (JOBS_SYNCHRONOUS), loopback receivers are allowed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from webapp import clock


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True,
                      WEBHOOK_TIMEOUT_SECONDS=2)


class Clock:
    """Injected time: starts now, moves only when told."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)
        clock.set_now(lambda: self.now)

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def frozen() -> Iterator[Clock]:
    yield Clock()
    clock.set_now(None)


def endpoint(api: Api, url: str, events: list[str] | None = None, **extra: Any
             ) -> dict[str, Any]:
    body = {"url": url, **({"enabledEvents": events} if events is not None else {}), **extra}
    response = api.post("/v1/webhook-endpoints", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def issue(api: Api, member: str = "Ada", *, google: bool = True) -> dict[str, Any]:
    """A new pass (an Apple-only one with `google=False`: no Google object to write)."""
    body = template_body() if google else \
        template_body(platforms={"apple": True, "google": False})
    template = api.post("/v1/templates", body).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": member},
                                       "holderName": "Ada Lovelace"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def sweep(app: Flask) -> int:
    from webapp.services.outbox import sweep as sweeper

    with app.app_context():
        return sweeper.run()
