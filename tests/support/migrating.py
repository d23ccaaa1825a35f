"""A database of its own, migrated to the head, with an organization and a template: where a
migration test issues passes before it goes down and up again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.api.factories import template_body
from tests.conftest import base_overrides
from webapp import create_app


@contextmanager
def at_head(tmp_path: Path, url: str) -> Iterator[tuple[Any, Any]]:
    """In the app context of a new app on `url` migrated to the head: the service context of
    a new organization's test environment, and a generic template of it."""
    from flask_migrate import upgrade

    app = create_app(base_overrides(tmp_path, url))
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        from webapp.extensions import db
        from webapp.services.accounts import organizations
        from webapp.services.context import Context
        from webapp.services.templates import revisions

        upgrade()
        org = organizations.create("Migrating", "m@example.test", "correct horse battery")
        ctx = Context(org.organization.id, "test")
        body = template_body()
        template = revisions.create(ctx, body["name"], body["type"], body["definition"])
        try:
            yield ctx, template
        finally:
            db.engine.dispose()
