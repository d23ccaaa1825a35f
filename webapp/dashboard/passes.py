"""Passes: list with search and filters, issue, detail, edit, void, download links, email,
erasure of the holder's data, and a printable QR code of the permanent link."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from flask import Response, flash, make_response, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, ctx, forms, insights, nav
from webapp.dashboard.htmx import go, render
from webapp.dashboard.once import once_per_form
from webapp.domain import balances as ledger_rules
from webapp.errors import Conflict, InvalidRequest, NotFound, RateLimited
from webapp.services.balances import ledger
from webapp.services.credentials import identities
from webapp.services.email import sending
from webapp.services.passes import (
    changes,
    download_links,
    erasure,
    installations,
    issuing,
    link_qr,
    queries,
    update_notices,
    views,
)
from webapp.services.templates import previews, revisions

nav.add("Passes", "dashboard.passes_index", 10)

_FILTERS = ("template", "status", "source", "q")
LINK_LIFETIMES = ((3600, "1 hour"), (86400, "1 day"), (7 * 86400, "7 days"))
ERASE_WORD = "ERASE"
EMAIL_LANGUAGES = (("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español"))


def _template_choices(include_archived: bool = True) -> list[Any]:
    active = revisions.list_(ctx(), limit=100).data
    return active + (revisions.list_(ctx(), archived=True, limit=100).data
                     if include_archived else [])


@bp.get(f"/{ENV}/passes")
def passes_index() -> Response:
    args = {name: request.args.get(name, "").strip() for name in _FILTERS}
    error, page = None, None
    try:
        page = queries.list_(ctx(), template_id=args["template"] or None,
                             status=args["status"] or None, source=args["source"] or None,
                             search=args["q"] or None, cursor=request.args.get("cursor") or None)
    except InvalidRequest as exc:
        error = exc.message
    return render("dashboard/passes/index.html", "dashboard/passes/_rows.html",
                  page=page, args=args, error=error, template_choices=_template_choices(),
                  expired=views.expired_ids(page.data if page else []),
                  installed=installations.for_list(ctx(), page.data if page else []))


def _issue_form(template_id: str | None, status: int = 200, **extra: Any) -> Response:
    choices = _template_choices(include_archived=False)
    chosen = None
    if template_id or choices:
        try:
            chosen = revisions.get(ctx(), template_id or choices[0].id)
        except NotFound:
            chosen = None
    fields = forms.per_pass_fields(chosen) if chosen else []
    return render("dashboard/passes/new.html", "dashboard/passes/_issue_form.html", status,
                  choices=choices, template=chosen, fields=fields,
                  holder_key=forms.holder_field_key(fields), **extra)


@bp.get(f"/{ENV}/passes/new")
def passes_new() -> Response:
    return _issue_form(request.args.get("template") or request.args.get("template_id"))


@bp.post(f"/{ENV}/passes")
@once_per_form
def passes_create() -> BaseResponse:
    template_id = request.form.get("template_id", "")
    template = revisions.get(ctx(), template_id)
    assert template.definition is not None  # `revisions.get` loads the current definition
    fields = forms.per_pass_fields(template)
    barcode = template.definition.get("barcode") or {}
    missing = forms.missing_values(request.form, fields, barcode.get("perPass") is True)
    if missing:
        return _issue_form(template_id, 422, values=forms.form_values(request.form),
                           errors=missing, problem=f"Not issued: {len(missing)} "
                           f"value{'s' if len(missing) != 1 else ''} missing.")
    try:
        req = forms.issue_request(request.form, fields, template.definition.get("platforms", {}))
        item = issuing.issue(ctx(), replace(req, balance=_opening(template.definition)))
    except InvalidRequest as exc:
        name = forms.field_name(exc.param)
        if name == "holder_name" and (holder_key := forms.holder_field_key(fields)):
            name = f"fv-{holder_key}"
        return _issue_form(template_id, 422, values=forms.form_values(request.form),
                           errors={name: exc.message} if name else {}, problem=exc.message,
                           problem_setup=exc.code == "live_credentials_missing")
    flash(f"Pass {item.short_id} issued.")
    return go(url_for("dashboard.passes_show", pass_id=item.id))


def _detail(pass_id: str, status: int = 200, **extra: Any) -> Response:
    item = queries.get(ctx(), pass_id)
    last = item.last_email
    extra.setdefault("email_to", last.to_address if last else item.holder_email)
    extra.setdefault("email_locale", last.locale if last else "en")
    return render("dashboard/passes/show.html", extra.pop("partial", None), status,
                  item=item, card=previews.for_pass(item),
                  expires_at=views.expires_at(item, item.definition or {}),
                  updates=queries.list_updates(ctx(), pass_id, limit=50).data,
                  activity=insights.pass_activity(pass_id),
                  links=download_links.list_for_pass(ctx(), pass_id, limit=20).data,
                  wallets=installations.for_pass(ctx(), item),
                  distribution_url=views.distribution_url(item.short_id),
                  lifetimes=LINK_LIFETIMES, email_languages=EMAIL_LANGUAGES,
                  email_setup_problem=sending.setup_problem(), demo=_demo(item),
                  balance=ledger.for_page(ctx(), item), **extra)


def _opening(definition: dict[str, Any]) -> int | None:
    """The form's opening balance of a loyalty or gift card (money as 12.50), or None.

    :raises InvalidRequest: not an amount.
    """
    text = request.form.get("balance", "").strip()
    kind = ledger_rules.balance_kind(definition.get("type"))
    if not text or kind is None or text.strip("0.,") == "":
        return None
    digits = ledger_rules.CURRENCIES.get(ledger_rules.currency(definition) or "", 0) \
        if kind == "money" else 0
    return forms.amount(text, digits, "earn")


def _demo(item: Any) -> dict[str, bool]:
    """Per wallet: whether the pass is signed by a demo identity the wallet refuses."""
    limits = identities.demo_limits()
    return {"apple": item.apple and item.apple_certificate_id == identities.DEMO
            and limits.apple,
            "google": item.google and item.google_issuer_id == identities.DEMO
            and limits.google}


@bp.get(f"/{ENV}/passes/<pass_id>")
def passes_show(pass_id: str) -> Response:
    return _detail(pass_id)


@bp.post(f"/{ENV}/passes/<pass_id>/edit")
@once_per_form
def passes_edit(pass_id: str) -> BaseResponse:
    item = queries.get(ctx(), pass_id)
    known = update_notices.facts(ctx(), item)  # read before the save: what it will meet
    patch = forms.value_patch(request.form, item.editable_fields or [])
    mode = request.form.get("notification_mode", "silent")
    try:
        updated = changes.update(ctx(), pass_id, patch, mode)
    except (InvalidRequest, Conflict) as exc:
        name = forms.field_name(exc.param)
        return _detail(pass_id, 422 if isinstance(exc, InvalidRequest) else 409,
                       partial="dashboard/passes/_edit.html",
                       edit_errors={name: exc.message} if name and name != "fields" else {},
                       edit_problem=exc.message, values=forms.form_values(request.form))
    changed = len(updated.update.changes or [])
    flash(f"Saved {changed} change{'s' * (changed != 1)}.")
    for notice in update_notices.after(updated.pass_, known, updated.update):
        flash(notice.text)
    return go(url_for("dashboard.passes_show", pass_id=pass_id))


@bp.post(f"/{ENV}/passes/<pass_id>/edit/notice")
def passes_edit_notice(pass_id: str) -> Response:
    """What saving the form's values would do in each wallet (nothing is saved)."""
    item = queries.get(ctx(), pass_id)
    patch = forms.value_patch(request.form, item.editable_fields or [])
    mode = request.form.get("notification_mode", "silent")
    notices = update_notices.before(item, update_notices.facts(ctx(), item), patch, mode)
    return render("dashboard/passes/_notice.html", None, 200, item=item, notices=notices)


@bp.get(f"/{ENV}/passes/<pass_id>/updates/<update_id>/delivery")
def passes_delivery(pass_id: str, update_id: str) -> Response:
    """One update's delivery badges; the page asks again while a delivery is unsettled."""
    item = queries.get(ctx(), pass_id)
    update = queries.get_update(ctx(), update_id)
    if update.pass_id != item.id:
        raise NotFound(f"No such pass update: {update_id}", param="id")
    return render("dashboard/passes/_delivery.html", None, 200, item=item, u=update)


@bp.post(f"/{ENV}/passes/<pass_id>/void")
def passes_void(pass_id: str) -> BaseResponse:
    with contextlib.suppress(Conflict):  # voided already: show it as it is
        changes.void(ctx(), pass_id)
    flash("The pass is voided. Wallets show it as no longer valid.")
    return go(url_for("dashboard.passes_show", pass_id=pass_id))


@bp.post(f"/{ENV}/passes/<pass_id>/erase")
@once_per_form
def passes_erase(pass_id: str) -> BaseResponse:
    """Erase the holder's data (issue 33) once the word is typed: it cannot be undone."""
    typed = request.form.get("confirm", "")
    if typed.strip().upper() != ERASE_WORD:
        return _detail(pass_id, 422, partial="dashboard/passes/_erase.html", erase_typed=typed[:20],
                       erase_problem=f"Nothing was erased: type {ERASE_WORD} to confirm.")
    erasure.erase(ctx(), pass_id)
    flash("The holder's data is erased and the pass is voided.")
    return go(url_for("dashboard.passes_show", pass_id=pass_id))


@bp.post(f"/{ENV}/passes/<pass_id>/download-links")
@once_per_form
def passes_link(pass_id: str) -> Response:
    try:
        lifetime = int(request.form.get("expires_in", "3600"))
    except ValueError:
        lifetime = -1
    try:
        link = download_links.create(ctx(), pass_id, lifetime)
    except InvalidRequest as exc:
        return _detail(pass_id, 422, partial="dashboard/passes/_links.html",
                       link_problem=exc.message)
    return _detail(pass_id, 201, partial="dashboard/passes/_links.html", new_link=link)


@bp.post(f"/{ENV}/passes/<pass_id>/email")
@once_per_form
def passes_email(pass_id: str) -> BaseResponse:
    to = request.form.get("to", "").strip()
    locale = request.form.get("locale", "en")
    try:
        email = sending.send(ctx(), pass_id, to=to or None, locale=locale)
    except (InvalidRequest, RateLimited) as exc:  # a bad address, a voided pass, email not
        # set up, in test no member's address (422); too many in the hour (429)
        status = 429 if isinstance(exc, RateLimited) else 422
        response = _detail(pass_id, status, partial="dashboard/passes/_email.html",
                           email_problem=exc.message, email_to=to, email_locale=locale)
        if isinstance(exc, RateLimited):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    flash(f"The pass is on its way to {email.to_address}.")
    return go(url_for("dashboard.passes_show", pass_id=pass_id))


@bp.get(f"/{ENV}/passes/<pass_id>/qr")
def passes_qr(pass_id: str) -> Response:
    """A page to print: the QR code of the pass's permanent link, with who and what it is."""
    item = queries.get(ctx(), pass_id)
    return render("dashboard/passes/qr.html", None, 200, item=item,
                  qr=link_qr.svg_element(item.short_id),
                  distribution_url=views.distribution_url(item.short_id))


@bp.get(f"/{ENV}/passes/<pass_id>/qr.svg")
def passes_qr_svg(pass_id: str) -> Response:
    """The QR code as an SVG file, for print layouts."""
    item = queries.get(ctx(), pass_id)
    response = make_response(link_qr.svg_file(item.short_id))
    response.content_type = "image/svg+xml"
    response.headers["Content-Disposition"] = \
        f'attachment; filename="pass-{item.short_id}-qr.svg"'
    return response
