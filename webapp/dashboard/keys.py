"""API keys: list (with each key's access in words), create (the secret shown once, the
access chosen with a preset or per resource), revoke."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Response, request

from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.dashboard.once import once_per_form
from webapp.domain import permissions
from webapp.errors import InvalidRequest
from webapp.services.accounts import api_keys

nav.add("API keys", "dashboard.keys_index", 30)


def _page(status: int = 200, **extra: object) -> Response:
    keys = api_keys.list_for(ctx().organization_id)
    return render("dashboard/keys/index.html", "dashboard/keys/_panel.html", status,
                  keys=keys, presets=permissions.PRESETS, custom=permissions.CUSTOM,
                  resources=permissions.RESOURCES, levels=permissions.LEVELS,
                  describe=permissions.describe, details=permissions.details,
                  preset_of=permissions.preset_of, **extra)


@bp.get(f"/{ENV}/keys")
def keys_index() -> Response:
    return _page()


@bp.post(f"/{ENV}/keys")
@once_per_form
def keys_create() -> Response:
    name = request.form.get("name", "").strip()
    environment = request.form.get("environment", ctx().environment)
    choice = request.form.get("preset", "full_access")
    levels = {r: request.form.get(f"level_{r}", "none") for r in permissions.RESOURCES}
    form = {"name": name, "environment": environment, "preset": choice, "levels": levels}
    try:
        key, secret = api_keys.create(ctx().organization_id, environment, name or None,
                                      _chosen(choice, levels))
    except permissions.InvalidPermissions as exc:
        return _page(422, errors={"preset": exc.message}, form=form)
    except InvalidRequest as exc:
        return _page(422, errors={exc.param or "name": exc.message}, form=form)
    return _page(201, created=key, secret=secret)


def _chosen(choice: str, levels: Mapping[str, str]) -> Mapping[str, str] | None:
    """The permissions a preset names, or the levels chosen one by one for "Custom".

    :raises InvalidPermissions: no such preset.
    """
    if choice == permissions.CUSTOM:
        return levels
    return permissions.preset(choice).permissions


@bp.post(f"/{ENV}/keys/<key_id>/revoke")
def keys_revoke(key_id: str) -> Response:
    key = api_keys.revoke(key_id, ctx().organization_id)
    return _page(200, flash=f"Key {key.name} ({key.prefix}…) is revoked.")
