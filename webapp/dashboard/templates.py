"""Templates: list, create, the designer (form + live preview), save with expectedRevision,
history, archive/unarchive/duplicate, settings, image uploads."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Response, flash, g, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp import clock
from webapp.dashboard import ENV, bp, ctx, designer, nav
from webapp.dashboard.htmx import go, render
from webapp.dashboard.once import once_per_form
from webapp.domain import definition as rules
from webapp.domain import translations, update_notice
from webapp.errors import Conflict, InvalidDefinition, InvalidRequest
from webapp.services.credentials import identities
from webapp.services.templates import assets, history, previews, revisions

nav.add("Templates", "dashboard.templates_index", 20)

SLOT_HINTS = {
    "icon": "Apple: lock screen and notifications (square)",
    "logo": "Top left on Apple; the round logo on Google",
    "strip": "Apple: behind the primary field",
    "thumbnail": "Apple: right of the primary field",
    "background": "Apple event tickets: blurred behind the pass; with a logo, the artwork of "
                  "Apple's event ticket style on iOS 18",
    "hero": "Google: the wide image at the bottom",
}
# Apple shows a background on event tickets only (definition issues say so), and store
# cards and coupons show no thumbnail.
EVENT_ONLY_SLOTS = ("background",)
STORE_TYPES = ("loyalty", "gift_card", "coupon")
# Apple's event types, as the designer names them (definition.EVENT_CATEGORIES).
EVENT_CATEGORY_LABELS = {"generic": "Other", "livePerformance": "Live performance",
                         "movie": "Movie", "sports": "Sports", "conference": "Conference",
                         "convention": "Convention", "workshop": "Workshop",
                         "socialGathering": "Social gathering"}
SEAT_PART_LABELS = {"section": "Section", "row": "Row", "number": "Seat number",
                    "gate": "Gate"}


def _slot_hints(template_type: str) -> dict[str, str]:
    """The image slots the designer offers for a template type, with their hints."""
    return {slot: hint for slot, hint in SLOT_HINTS.items()
            if (template_type == "event_ticket" or slot not in EVENT_ONLY_SLOTS)
            and not (template_type in STORE_TYPES and slot == "thumbnail")}


@bp.get(f"/{ENV}/templates")
def templates_index() -> Response:
    archived = request.args.get("archived") == "1"
    page = revisions.list_(ctx(), archived=archived, limit=100)
    return render("dashboard/templates/index.html", None, 200, templates=page.data,
                  archived=archived)


@bp.route(f"/{ENV}/templates/new", methods=["GET", "POST"])
@once_per_form
def templates_new() -> BaseResponse:
    if request.method == "GET":
        return render("dashboard/templates/new.html", form={"type": "generic"})
    name, type_ = request.form.get("name", "").strip(), request.form.get("type", "")
    starts = (clock.now() + timedelta(days=30)).replace(hour=19, minute=0, second=0,
                                                        microsecond=0)
    try:
        logo = assets.generated_logo(ctx(), g.membership.organization_name).id \
            if type_ == "loyalty" else None  # Google's loyalty class needs one
        template = revisions.create(ctx(), name, type_, designer.starter(
            type_, g.membership.organization_name, starts.strftime("%Y-%m-%dT%H:%M:%SZ"),
            logo=logo))
    except InvalidRequest as exc:
        return render("dashboard/templates/new.html", None, 422, form=request.form,
                      errors={exc.param or "name": exc.message})
    flash(f"Template {template.name} created. Design it below; the preview follows along.")
    return go(url_for("dashboard.templates_edit", template_id=template.id))


def _designer(template: Any, state: designer.FormState, status: int = 200,
              **extra: Any) -> Response:
    """The designer; `dirty=True` when the form holds changes not saved (an edit button was
    used, or a save failed), so the page keeps warning before it is left."""
    definition = designer.to_definition(state, template.type)
    certs, issuers = identities.list_for(ctx().organization_id)
    return render("dashboard/templates/edit.html", "dashboard/templates/_designer.html",
                  status, template=template, state=state, groups=designer.GROUP_LABELS,
                  limits=rules.GROUP_LIMITS, slot_hints=_slot_hints(template.type), certs=certs,
                  event_categories=EVENT_CATEGORY_LABELS, seat_parts=SEAT_PART_LABELS,
                  issuers=issuers, card=_preview(definition, state["previewLanguage"]),
                  translation_rows=designer.translation_rows(state, template.type),
                  live_issues=_live_issues(definition, template.type),
                  contrast=designer.contrast_warnings(definition),
                  save_notice=update_notice.design_before_save(template.revision),
                  outdated=history.passes_on_older_revisions(ctx(), template.id), **extra)


def _preview(definition: dict[str, Any], language: str) -> dict[str, Any]:
    """The preview card in the language the designer's switch shows ("": the default one)."""
    return previews.for_definition(translations.localize(definition, language))


def _live_issues(definition: dict[str, Any], template_type: str) -> list[dict[str, str]]:
    """The definition's issues as the preview lists them, in words."""
    return [{**issue, "message": designer.words(issue, definition)}
            for issue in rules.validate(definition, template_type)]


@bp.get(f"/{ENV}/templates/<template_id>")
def templates_edit(template_id: str) -> Response:
    template = revisions.get(ctx(), template_id)
    assert template.definition is not None  # `revisions.get` loads the current definition
    source, note = template.definition, None
    if (wanted := request.args.get("from_revision", "")).isdigit():
        source = revisions.get_revision(ctx(), template_id, int(wanted))
        note = f"Showing revision {wanted}. Save to make it the current design."
    return _designer(template, designer.from_definition(source, template.name,
                                                        template.revision), notice=note)


@bp.post(f"/{ENV}/templates/<template_id>/form")
def templates_form(template_id: str) -> Response:
    """Add, remove or move a field or location: the form changes, nothing is saved."""
    template = revisions.get(ctx(), template_id)
    state = designer.apply(designer.from_form(request.form), request.form.get("op", ""))
    return _designer(template, state, dirty=True)


@bp.post(f"/{ENV}/templates/<template_id>/preview")
def templates_preview(template_id: str) -> Response:
    template = revisions.get(ctx(), template_id)
    state = designer.from_form(request.form)
    definition = designer.to_definition(state, template.type)
    return render("dashboard/templates/_preview.html", None, 200,
                  card=_preview(definition, state["previewLanguage"]), state=state,
                  template=template,
                  live_issues=_live_issues(definition, template.type))


@bp.post(f"/{ENV}/templates/<template_id>/contrast")
def templates_contrast(template_id: str) -> Response:
    """The warnings for colour pairs that are hard to read, as the colour inputs change."""
    template = revisions.get(ctx(), template_id)
    definition = designer.to_definition(designer.from_form(request.form), template.type)
    return render("dashboard/templates/_contrast.html", None, 200,
                  contrast=designer.contrast_warnings(definition))


@bp.post(f"/{ENV}/templates/<template_id>")
@once_per_form
def templates_save(template_id: str) -> Response:
    template = revisions.get(ctx(), template_id)
    before = template.revision
    state = designer.from_form(request.form)
    overwrite = request.form.get("overwrite", "")
    expected = int(overwrite) if overwrite.isdigit() else state["revision"]
    definition = designer.for_save(state, template.type, template.definition or {})
    try:
        saved = revisions.update(ctx(), template_id, expected, name=state["name"].strip(),
                                 definition=definition)
    except InvalidDefinition as exc:
        errors, summary = designer.place(exc.issues, definition)
        return _designer(template, state, 422, errors=errors, summary=summary, dirty=True)
    except InvalidRequest as exc:
        return _designer(template, state, 422, errors={exc.param or "name": exc.message},
                         summary=[exc.message], dirty=True)
    except Conflict as exc:
        return _designer(template, state, 409, conflict=exc.code, conflict_message=exc.message,
                         dirty=True)
    message = update_notice.design_saved(before, saved.revision)
    assert saved.definition is not None  # `revisions.update` returns it with its definition
    return _designer(saved, designer.from_definition(saved.definition, saved.name,
                                                     saved.revision), flash=message)


@bp.post(f"/{ENV}/templates/<template_id>/images/<slot>")
def templates_upload(template_id: str, slot: str) -> Response:
    revisions.get(ctx(), template_id)
    upload = request.files.get(f"file-{slot}")
    try:
        asset = assets.upload(ctx(), slot, upload.read() if upload else b"")
    except InvalidRequest as exc:
        return render("dashboard/templates/_slot.html", None, 422, slot=slot,
                      asset_id=request.form.get(f"img-{slot}", ""), hint=SLOT_HINTS.get(slot),
                      error=exc.message, template_id=template_id)
    response = render("dashboard/templates/_slot.html", None, 200, slot=slot,
                      asset_id=asset.id, hint=SLOT_HINTS.get(slot), template_id=template_id,
                      uploaded=asset)
    response.headers["HX-Trigger-After-Settle"] = "refreshPreview"
    return response


@bp.post(f"/{ENV}/templates/<template_id>/settings")
def templates_settings(template_id: str) -> BaseResponse:
    template = revisions.get(ctx(), template_id)
    wanted = {"appleCertificateId": request.form.get("apple_certificate_id") or None,
              "googleIssuerId": request.form.get("google_issuer_id") or None}
    try:
        revisions.update(ctx(), template_id, template.revision, settings=wanted)
    except (InvalidRequest, Conflict) as exc:
        flash(exc.message)
        return go(url_for("dashboard.templates_edit", template_id=template_id))
    flash("Template settings saved.")
    return go(url_for("dashboard.templates_edit", template_id=template_id) + "#settings")


@bp.post(f"/{ENV}/templates/<template_id>/<any(archive, unarchive):action>")
def templates_archive(template_id: str, action: str) -> BaseResponse:
    template = revisions.set_archived(ctx(), template_id, action == "archive")
    flash(f"{template.name} is {'archived' if template.archived else 'active again'}.")
    return go(url_for("dashboard.templates_edit", template_id=template_id))


@bp.post(f"/{ENV}/templates/<template_id>/duplicate")
@once_per_form
def templates_duplicate(template_id: str) -> BaseResponse:
    copy_ = revisions.duplicate(ctx(), template_id)
    flash(f"Duplicated as {copy_.name}.")
    return go(url_for("dashboard.templates_edit", template_id=copy_.id))


@bp.get(f"/{ENV}/templates/<template_id>/revisions")
def templates_history(template_id: str) -> Response:
    return _history(template_id, request.args.get("revision", ""),
                    request.args.get("compare", ""))


def _history(template_id: str, chosen: str, compare_to: str, status: int = 200,
             **extra: Any) -> Response:
    """The revisions, one of them drawn (the current one unless `chosen`), and what changed
    in it since the revision before it (or since `compare_to`)."""
    template = revisions.get(ctx(), template_id)
    number = _number(chosen, template.revision)
    definition = history.definition(ctx(), template_id, number)
    other = _number(compare_to, 0) or number - 1
    changes = history.compare(ctx(), template_id, other, number) \
        if 1 <= other != number else None
    return render("dashboard/templates/history.html", "dashboard/templates/_history.html",
                  status, template=template, revisions=history.revisions(ctx(), template_id),
                  shown=number, compared=other if changes is not None else None,
                  changes=changes, definition=definition,
                  card=previews.for_definition(definition), **extra)


def _number(text: str, default: int) -> int:
    """A revision number from a query string (ASCII digits), else `default`."""
    return int(text) if text.isascii() and text.isdigit() else default


@bp.post(f"/{ENV}/templates/<template_id>/revisions/<int:revision>/restore")
@once_per_form
def templates_restore(template_id: str, revision: int) -> BaseResponse:
    """Save an old revision's design as a new revision (the same rules as any save)."""
    wanted = request.form.get("expected_revision", "")
    expected = int(wanted) if wanted.isdigit() else -1
    try:
        saved = history.restore(ctx(), template_id, revision, expected)
    except Conflict as exc:
        problem = exc.message if exc.code != "stale_revision" else (
            "The template was saved again while you were looking. Check what changed, "
            "then restore.")
        return _history(template_id, str(revision), "", 409, problem=problem)
    except InvalidDefinition as exc:
        return _history(template_id, str(revision), "", 422, problem=(
            f"Revision {revision} cannot be restored: it does not pass today's checks."),
            issues=exc.issues)
    if saved.revision == expected:
        flash(f"Revision {revision} is the current design already; nothing was saved.")
    else:
        flash(f"Revision {revision} restored: its design is now revision {saved.revision}.")
    return go(url_for("dashboard.templates_history", template_id=template_id))
