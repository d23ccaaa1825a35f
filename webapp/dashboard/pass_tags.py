"""A pass's tags on its page (issue 33): shown, and changed by staff (the API's rules: at
most 20, each 1 to 40 letters, digits, '-', '_', '.' or ':'; stored in lower case)."""

from __future__ import annotations

import re

from flask import flash, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, ctx
from webapp.dashboard.htmx import go
from webapp.dashboard.once import once_per_form
from webapp.errors import Conflict, InvalidRequest
from webapp.services.passes import changes

# Tags hold no spaces, commas or semicolons: any of them separates two.
_SEPARATORS = re.compile(r"[\s,;]+")


@bp.post(f"/{ENV}/passes/<pass_id>/tags")
@once_per_form
def passes_tags(pass_id: str) -> BaseResponse:
    from webapp.dashboard.passes import _detail

    typed = request.form.get("tags", "")
    tags = [tag for tag in _SEPARATORS.split(typed) if tag]
    try:
        changes.update(ctx(), pass_id, None, "silent", None, tags)
    except InvalidRequest as exc:
        if exc.code != "nothing_changed":
            return _detail(pass_id, 422, partial="dashboard/passes/_tags.html",
                           tags_typed=typed[:1000], tags_problem=_problem(exc, tags))
    except Conflict as exc:
        return _detail(pass_id, 409, partial="dashboard/passes/_tags.html",
                       tags_typed=typed[:1000], tags_problem=exc.message)
    flash("Tags saved." if tags else "Tags removed.")
    return go(url_for("dashboard.passes_show", pass_id=pass_id))


def _problem(exc: InvalidRequest, tags: list[str]) -> str:
    """The API's message naming the tag as typed rather than by its place (`tags.3`)."""
    param = exc.param or ""
    index = param.removeprefix("tags.")
    if index.isdigit() and int(index) < len(tags) and exc.message.startswith(param + " "):
        return f"The tag “{tags[int(index)]}” {exc.message.removeprefix(param + ' ')}"
    return exc.message
