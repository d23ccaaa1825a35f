"""`/join/<slug>`: a template's public sign-up page (issue 33).

GET: the form in the visitor's language, with the programme's logo and colours. POST (a
CSRF token from the visitor's session, an empty honeypot input, `RATE_LIMIT_SIGNUP` a minute
per client IP) issues the pass and answers 303 to its page; an address already signed up
gets its pass by email, never on the page. Bad input: 422 and the form again, the problems
beside their inputs and what was typed kept; an expired form (CSRF): 400, the same.
Closed (off, archived, replaced link): 410; unknown: 404.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, current_app, make_response, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError, generate_csrf

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.domain import definition_read, translations
from webapp.errors import InvalidRequest, NotFound
from webapp.extensions import csrf, limiter
from webapp.services.enrollment import signup

HONEYPOT = "leave_empty"  # hidden from people; a form-filling bot fills it
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
_AUTOCOMPLETE = (("phone", "tel"), ("mobile", "tel"), ("birth", "bday"), ("postal", "postal-code"),
                 ("zip", "postal-code"), ("company", "organization"))


def _limit() -> str:
    return f"{current_app.config['RATE_LIMIT_SIGNUP']}/minute"


@bp.route("/join/<slug>", methods=["GET", "POST"])
@limiter.limit(_limit, methods=["POST"], scope="signup")
def join(slug: str) -> Response:
    """The sign-up page; its form posts here."""
    try:
        page = signup.page(slug)
    except NotFound:
        return _notice("unknown", 404, None)
    if not page.open:
        return _notice("closed", 410, page)
    if request.method != "POST":
        if request.method == "GET":  # HEAD is no look (insights)
            signup.viewed(page)
        return _form(page, {}, {}, 200)
    form = {f.key: request.form.get(f.key, "") for f in page.fields}
    if request.form.get(HONEYPOT):  # a bot: it learns nothing, nothing is made
        return _notice("sent", 200, page)
    try:
        csrf.protect()  # the token in the form against the visitor's session
    except CSRFError:
        return _form(page, form, {"_form": "expired"}, 400)
    problems = signup.check(page, form, request.form.get("consent") == "yes")
    if problems:
        return _form(page, form, problems, 422)
    try:
        outcome = signup.sign_up(page, form, view.lang())
    except signup.Closed:
        return _notice("closed", 410, page)
    except signup.Unavailable:
        return _notice("unavailable", 503, page)
    except InvalidRequest as exc:  # a value the template's field refuses
        return _form(page, form, {exc.param or "_form": "invalid_value"}, 422)
    if outcome.kind == "issued":
        assert outcome.distribution_url is not None
        return _secure(redirect(outcome.distribution_url, 303), None)
    return _notice("sent" if outcome.emailed else "already", 200, page)


def _theme(page: signup.Page | None) -> str | None:
    colors = (page.definition.get("colors") if page else None) or {}
    bg, fg = colors.get("background"), colors.get("foreground")
    if not (isinstance(bg, str) and _COLOR.fullmatch(bg)
            and isinstance(fg, str) and _COLOR.fullmatch(fg)):
        return None
    return f":root{{--brand-bg:{bg};--brand-fg:{fg}}}"


def _look(page: signup.Page | None) -> dict[str, Any]:
    """The page's logo, colours and texts, in the template's language nearest the reader's."""
    shown = translations.localize(page.definition, translations.negotiate(
        view.reader_languages(), page.definition)) if page else {}
    images = shown.get("images") or {}
    logo = images.get("logo") or images.get("icon")
    labels = {key: field.get("label") for key, field in
              definition_read.per_pass_fields(shown).items()}
    return {"page": page, "theme": _theme(page), "labels": labels,
            "logo": url_for("distribution.asset_bytes", asset_id=logo) if logo else None,
            "heading": shown.get("description") or "",
            "org": shown.get("organizationName") or (page.organization_name if page else "")}


def _form(page: signup.Page, values: dict[str, str], problems: dict[str, str],
          status: int) -> Response:
    body = render_template("holder/signup.html", values=values, problems=problems,
                           csrf_token=generate_csrf(), honeypot=HONEYPOT,
                           autocomplete=autocomplete, **_look(page))
    return _secure(make_response(body, status), _theme(page))


def _notice(reason: str, status: int, page: signup.Page | None) -> Response:
    body = render_template("holder/signup_notice.html", reason=reason, **_look(page))
    return _secure(make_response(body, status), _theme(page))


def _secure(response: Any, theme: str | None) -> Response:
    """The holder pages' headers, with the form allowed to post to this site; never stored
    (the form carries the visitor's CSRF token)."""
    view.secure(response, private=True, theme=theme)
    response.headers["Content-Security-Policy"] = response.headers[
        "Content-Security-Policy"].replace("form-action 'none'", "form-action 'self'")
    return response


def autocomplete(key: str) -> str:
    """The input's `autocomplete` token, so browsers fill in what they know."""
    if key == "holderName":
        return "name"
    if key == "holderEmail":
        return "email"
    lowered = key.lower()
    return next((token for part, token in _AUTOCOMPLETE if part in lowered), "off")
