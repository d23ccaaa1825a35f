"""Messages to holders (issue 33): the composer (audience with its size before sending, how
the message looks in both wallets, now or at a time) and the list of messages with their
counts per wallet, which refreshes itself while a message is on its way."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Response, request

from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.dashboard.once import once_per_form
from webapp.domain import messages as rules
from webapp.errors import InvalidRequest, NotFound, ServiceError
from webapp.services import messages
from webapp.services.messages import composing
from webapp.services.passes import queries as pass_queries
from webapp.services.templates import revisions

nav.add("Messages", "dashboard.messages_index", 22)
REASON_WORDS = {
    "pass_voided": "voided", "pass_not_found": "no longer found",
    "not_issued_for_wallet": "not issued for this wallet",
    "not_in_wallet": "not in a wallet (nobody added the pass)",
    "notification_quota_exceeded": "added without notification (Google's 3 per day were "
                                   "spent)"}
_FIELDS = ("header", "body", "template_id", "tag", "search", "when", "send_at", "tz")
# The API's member -> the form's input, for errors shown beside the inputs.
_INPUTS = {"audience.templateId": "template_id", "audience.tag": "tag",
           "audience.search": "search", "audience": "template_id", "sendAt": "send_at"}


def _form() -> dict[str, str]:
    source = request.form if request.method == "POST" else request.args
    return {name: source.get(name, "").strip() if name not in ("header", "body")
            else source.get(name, "") for name in _FIELDS}


def _audience(form: dict[str, str]) -> dict[str, Any]:
    names = {"templateId": form["template_id"], "tag": form["tag"], "search": form["search"]}
    return {name: value for name, value in names.items() if value}


def _page(status: int = 200, **extra: Any) -> Response:
    items = messages.list_(ctx(), limit=50).data
    templates = revisions.list_(ctx(), limit=100).data
    return render("dashboard/messages/index.html", "dashboard/messages/_panel.html", status,
                  templates=templates, limits=rules, form=extra.pop("form", {}),
                  **_listed(items), **extra)


def _listed(items: list[Any]) -> dict[str, Any]:
    """What the list draws: the messages, their templates' names, whether to ask again."""
    names = pass_queries.template_names(
        {m.audience["templateId"] for m in items if m.audience.get("templateId")})
    return {"items": items, "template_names": names, "reason_words": REASON_WORDS,
            "watch": _watch(items)}


def _watch(items: list[Any]) -> bool:
    """Whether a message is still on its way (the list asks again in a moment)."""
    return any(m.status == "sending" or any(
        (m.delivery or {}).get(w, {}).get("pending") for w in ("apple", "google"))
        for m in items if m.status != "scheduled")


@bp.get(f"/{ENV}/messages")
def messages_index() -> Response:
    return _page()


@bp.get(f"/{ENV}/messages/list")
def messages_list() -> Response:
    """The list alone (what the page polls while a message is on its way)."""
    items = messages.list_(ctx(), limit=50).data
    return render("dashboard/messages/_list.html", None, 200, **_listed(items))


@bp.get(f"/{ENV}/messages/preview")
def messages_preview() -> Response:
    """The audience's size and the message as each wallet shows it (nothing is sent)."""
    form = _form()
    size, problem = None, None
    try:
        if _audience(form):
            size = composing.audience_size(ctx(), composing.checked_audience(
                ctx(), _audience(form)))
    except (InvalidRequest, NotFound) as exc:
        problem = _worded(exc.message)
    return render("dashboard/messages/_preview.html", None, 200, form=form, size=size,
                  problem=problem, organization=_organization_name(form))


def _organization_name(form: dict[str, str]) -> str:
    """What a wallet shows as the sender: the chosen template's organizationName."""
    if form["template_id"]:
        try:
            template = revisions.get(ctx(), form["template_id"])
            return str((template.definition or {}).get("organizationName") or template.name)
        except NotFound:
            pass
    return "Your organization"


@bp.post(f"/{ENV}/messages")
@once_per_form
def messages_create() -> Response:
    form = _form()
    try:
        send_at = _send_at(form) if form["when"] == "later" else None
        created = messages.create(ctx(), messages.Compose(
            header=form["header"], body=form["body"], audience=_audience(form),
            send_at=send_at))
    except (InvalidRequest, NotFound) as exc:
        name = _INPUTS.get(exc.param or "", exc.param or "body")
        return _page(422, form=form, errors={name: _worded(exc.message)})
    flash = ("Scheduled." if created.status == "scheduled" else
             f"Sending to {created.audience_size} pass{'es' * (created.audience_size != 1)}.")
    return _page(201, flash=flash)


def _worded(message: str) -> str:
    """The API's message with its member names as the form's labels."""
    for member, label in (("audience.tag", "The tag"), ("sendAt", "The time to send at")):
        message = message.replace(member, label)
    return message


def _send_at(form: dict[str, str]) -> str:
    """The form's date and time in the browser's time zone (sent by the page as `tz`).

    :raises InvalidRequest: no date and time, or not one.
    """
    try:
        zone = ZoneInfo(form["tz"] or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    try:
        local = datetime.fromisoformat(form["send_at"])
    except ValueError:
        raise InvalidRequest("Choose the date and time to send at.", param="sendAt") from None
    return local.replace(tzinfo=zone).isoformat()


@bp.post(f"/{ENV}/messages/<message_id>/cancel")
def messages_cancel(message_id: str) -> Response:
    try:
        messages.cancel(ctx(), message_id)
    except ServiceError as exc:
        if isinstance(exc, NotFound):
            raise
        return _page(409, flash_error=exc.message)
    return _page(flash="The scheduled message is canceled.")
