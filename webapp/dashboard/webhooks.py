"""Webhooks: endpoints (create with the secret shown once, enable/disable, rotate, delete,
send a test event) and each endpoint's delivery log with every attempt and a "Resend"
action; the log refreshes itself while a delivery is about to be attempted."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Response, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp import clock
from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import go, render
from webapp.dashboard.once import once_per_form
from webapp.errors import Conflict, InvalidRequest
from webapp.services.webhooks import endpoints, events, ping

nav.add("Webhooks", "dashboard.webhooks_index", 40)
# The delivery log reloads itself while a delivery's next attempt is this close.
WATCH_WITHIN = timedelta(seconds=60)


def _index(status: int = 200, **extra: object) -> Response:
    page = endpoints.list_(ctx(), limit=100)
    # The test event goes to the endpoint it is sent to; subscribing to it means nothing.
    subscribable = [t for t in events.EVENT_TYPES if t != events.TEST_EVENT]
    return render("dashboard/webhooks/index.html", "dashboard/webhooks/_list.html", status,
                  endpoints=page.data, event_types=subscribable, **extra)


def _deliveries(endpoint_id: str) -> dict[str, Any]:
    """The delivery log's page and whether it should reload itself soon."""
    cursor = request.args.get("cursor") or None
    deliveries = endpoints.list_deliveries(ctx(), endpoint_id, limit=50, cursor=cursor)
    soon = clock.now() + WATCH_WITHIN
    watch = cursor is None and any(
        d.status == "pending" and (d.next_attempt_at is None or d.next_attempt_at <= soon)
        for d in deliveries.data)
    return {"deliveries": deliveries, "watch": watch}


def _detail(endpoint_id: str, status: int = 200, **extra: object) -> Response:
    endpoint = endpoints.get(ctx(), endpoint_id)
    return render("dashboard/webhooks/detail.html", "dashboard/webhooks/_detail.html", status,
                  endpoint=endpoint, **_deliveries(endpoint_id), **extra)


@bp.get(f"/{ENV}/webhooks")
def webhooks_index() -> Response:
    return _index()


@bp.post(f"/{ENV}/webhooks")
@once_per_form
def webhooks_create() -> Response:
    url = request.form.get("url", "").strip()
    description = request.form.get("description", "").strip()
    events = request.form.getlist("events")
    chosen = ["*"] if not events or "*" in events else events
    try:
        created = endpoints.create(ctx(), url, chosen, description or None)
    except InvalidRequest as exc:
        form = {"url": url, "description": description, "events": events}
        return _index(422, errors={exc.param or "url": exc.message}, form=form)
    return _index(201, created=created)


@bp.get(f"/{ENV}/webhooks/<endpoint_id>")
def webhooks_detail(endpoint_id: str) -> Response:
    return _detail(endpoint_id)


@bp.post(f"/{ENV}/webhooks/<endpoint_id>/status")
def webhooks_status(endpoint_id: str) -> Response:
    wanted = request.form.get("status", "")
    endpoints.update(ctx(), endpoint_id, endpoints.EndpointChanges(status=wanted))
    return _detail(endpoint_id, flash=f"The endpoint is {wanted}.")


@bp.post(f"/{ENV}/webhooks/<endpoint_id>/rotate")
@once_per_form
def webhooks_rotate(endpoint_id: str) -> Response:
    rotated = endpoints.rotate_secret(ctx(), endpoint_id)
    return _detail(endpoint_id, secret=rotated.secret)


@bp.post(f"/{ENV}/webhooks/<endpoint_id>/delete")
def webhooks_delete(endpoint_id: str) -> BaseResponse:
    endpoints.remove(ctx(), endpoint_id)
    return go(url_for("dashboard.webhooks_index"))


@bp.get(f"/{ENV}/webhooks/<endpoint_id>/deliveries")
def webhooks_deliveries(endpoint_id: str) -> Response:
    """The delivery log alone (what the page polls while a delivery is due)."""
    endpoint = endpoints.get(ctx(), endpoint_id)
    return render("dashboard/webhooks/_deliveries.html", None, 200, endpoint=endpoint,
                  **_deliveries(endpoint_id))


@bp.post(f"/{ENV}/webhooks/<endpoint_id>/test")
@once_per_form
def webhooks_test(endpoint_id: str) -> Response:
    try:
        ping.send_test_event(ctx(), endpoint_id)
    except Conflict as exc:
        return _detail(endpoint_id, 409, flash_error=exc.message)
    return _detail(endpoint_id, 201, flash=f"A test event ({events.TEST_EVENT}) is on its way "
                                           "to the endpoint; its delivery is listed below.")


@bp.post(f"/{ENV}/webhooks/<endpoint_id>/deliveries/<delivery_id>/resend")
@once_per_form
def webhooks_resend(endpoint_id: str, delivery_id: str) -> Response:
    endpoints.resend(ctx(), endpoint_id, delivery_id)
    return _detail(endpoint_id, flash="The delivery is sent again.")
