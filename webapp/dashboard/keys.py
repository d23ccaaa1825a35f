"""API keys: list, create (the secret shown once), revoke."""

from __future__ import annotations

from flask import Response, request

from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.errors import InvalidRequest
from webapp.services.accounts import api_keys

nav.add("API keys", "dashboard.keys_index", 30)


def _page(status: int = 200, **extra: object) -> Response:
    keys = api_keys.list_for(ctx().organization_id)
    return render("dashboard/keys/index.html", "dashboard/keys/_panel.html", status,
                  keys=keys, **extra)


@bp.get(f"/{ENV}/keys")
def keys_index() -> Response:
    return _page()


@bp.post(f"/{ENV}/keys")
def keys_create() -> Response:
    name = request.form.get("name", "").strip()
    environment = request.form.get("environment", ctx().environment)
    try:
        key, secret = api_keys.create(ctx().organization_id, environment, name or None)
    except InvalidRequest as exc:
        return _page(422, errors={exc.param or "name": exc.message},
                     form={"name": name, "environment": environment})
    return _page(201, created=key, secret=secret)


@bp.post(f"/{ENV}/keys/<key_id>/revoke")
def keys_revoke(key_id: str) -> Response:
    key = api_keys.revoke(key_id, ctx().organization_id)
    return _page(200, flash=f"Key {key.name} ({key.prefix}…) is revoked.")
