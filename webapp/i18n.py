"""Languages of the pages people read: English, German, French and Spanish.

The locale comes from `Accept-Language` (the visitor's first language we speak, by
primary tag: `de-AT` is German), else English. Catalogues live in
`webapp/translations/<lang>/LC_MESSAGES/`; the compiled `.mo` files are committed next to
their `.po` sources so a fresh clone runs without a build step, and
`tests/holder/test_i18n.py` fails when the two drift apart.
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")
DEFAULT = "en"

babel = Babel()


def select_locale() -> str:
    """The first of the visitor's languages (by quality) that we speak, by primary tag.

    Werkzeug's `best_match` prefers any exact match over a primary-tag one, so it would
    answer `fr-CA, en;q=0.5` in English; a Canadian reader wants French.
    """
    for tag, quality in request.accept_languages:
        primary = tag.replace("_", "-").split("-", 1)[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return DEFAULT


def init_app(app: Flask) -> None:
    """Bind Flask-Babel (and its Jinja `_`/`gettext`) to the app."""
    babel.init_app(app, default_locale=DEFAULT, locale_selector=select_locale)
