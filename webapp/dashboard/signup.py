"""A template's sign-up page in the dashboard: its settings (on/off, which inputs, the
consent sentence), a new link, and an A4 poster with the link's QR code (issue 33).

The settings are the definition's `enrollment` member: saving them makes a new revision
through the same `revisions.update` as the designer (which keeps the member untouched).
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Response, flash, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, ctx
from webapp.dashboard.htmx import go, render
from webapp.domain import definition_read
from webapp.domain import enrollment as rules
from webapp.errors import Conflict, InvalidDefinition, InvalidRequest
from webapp.services.enrollment import links
from webapp.services.templates import revisions

ASK = ("off", "optional", "required")  # what the form does with each possible input


@bp.app_template_global()
def signup_settings(template: Any) -> dict[str, Any]:
    """What the template page's sign-up card shows: on/off, the link, each possible input
    (holder name and email, then the perPass fields) and how it is asked, the consent."""
    definition = template.definition or {}
    current = rules.settings(definition) or {}
    asked = {f["key"]: f.get("required") is True for f in current.get("fields") or []
             if isinstance(f, dict) and isinstance(f.get("key"), str)}
    per_pass = definition_read.per_pass_fields(definition)
    inputs = [("holderName", "Holder's name"), ("holderEmail", "Holder's email")] + [
        (key, f"{field.get('label') or key} ({key})") for key, field in per_pass.items()]
    links.attach(ctx(), [template])
    return {"enabled": rules.enabled(definition), "url": template.enrollment_url,
            "consent": current.get("consent", ""),
            "inputs": [{"key": key, "label": label,
                        "ask": "off" if key not in asked else
                        ("required" if asked[key] else "optional"),
                        "locked": key == "holderEmail" or per_pass.get(key, {}).get(
                            "required") is True}
                       for key, label in inputs]}


@bp.post(f"/{ENV}/templates/<template_id>/signup")
def templates_signup(template_id: str) -> BaseResponse:
    """Save the sign-up settings (a new revision when they change)."""
    template = revisions.get(ctx(), template_id)
    definition = copy.deepcopy(template.definition or {})
    wanted = {"enabled": request.form.get("enabled") == "on", "fields": [
        {"key": key, "required": request.form.get(f"ask-{key}") == "required"}
        for key in request.form.getlist("keys")
        if request.form.get(f"ask-{key}") in ("optional", "required")]}
    if consent := request.form.get("consent", "").strip():
        wanted["consent"] = consent
    definition["enrollment"] = wanted
    try:
        revisions.update(ctx(), template_id, template.revision, definition=definition)
    except InvalidDefinition as exc:
        for issue in exc.issues:
            if issue["path"].startswith("/enrollment"):
                flash(f"Sign-up page: {issue['message']}")
        return go(url_for("dashboard.templates_edit", template_id=template_id) + "#signup")
    except Conflict as exc:
        flash(exc.message)
        return go(url_for("dashboard.templates_edit", template_id=template_id) + "#signup")
    flash("Sign-up page saved." if wanted["enabled"] else "Sign-ups are off.")
    return go(url_for("dashboard.templates_edit", template_id=template_id) + "#signup")


@bp.post(f"/{ENV}/templates/<template_id>/signup/new-link")
def templates_signup_link(template_id: str) -> BaseResponse:
    """Replace the sign-up link; the old one's page says sign-ups are closed."""
    try:
        links.replace(ctx(), template_id)
    except (Conflict, InvalidRequest) as exc:
        flash(exc.message)
    else:
        flash("New sign-up link made. The old link now says sign-ups are closed: replace "
              "printed posters.")
    # No #signup here: HTMX's redirect to the page's own URL and fragment would not reload it.
    return go(url_for("dashboard.templates_edit", template_id=template_id))


@bp.get(f"/{ENV}/templates/<template_id>/signup/poster")
def templates_signup_poster(template_id: str) -> Response:
    """A printable A4 poster: the programme, "scan to sign up", the QR code, the link."""
    template = revisions.get(ctx(), template_id)
    links.attach(ctx(), [template])
    if template.enrollment_url is None:
        return render("dashboard/templates/poster.html", None, 409, template=template,
                      qr=None, definition=template.definition or {})
    return render("dashboard/templates/poster.html", template=template,
                  qr=links.qr(template.enrollment_url), definition=template.definition or {})
