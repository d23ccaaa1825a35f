"""Apple's authenticationToken is encrypted at rest and recoverable for pass.json."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select, text

from tests.apple.conftest import auth_token, issue
from tests.conftest import Api
from tests.support.migrating import at_head


def test_the_stored_token_is_not_the_token(app: Flask, api: Api, client: Any) -> None:
    from webapp.extensions import db
    from webapp.models import Pass

    item = issue(api)
    token = auth_token(app, item["id"])
    assert len(token) >= 32
    with app.app_context():
        stored = db.session.scalar(select(Pass.auth_token_encrypted)
                                   .where(Pass.id == item["id"]))
    assert token not in stored and base64.urlsafe_b64decode(stored)[0] == 0x01  # AES-GCM


def test_the_migration_encrypts_existing_tokens_and_back(tmp_path: Path, database: dict) -> None:
    if database["kind"] != "sqlite":
        pytest.skip("migrations are exercised on a file of their own")
    from flask_migrate import downgrade, upgrade

    url = f"sqlite:///{tmp_path / 'migrate.sqlite3'}"
    with at_head(tmp_path, url) as (ctx, template):
        from webapp.extensions import db
        from webapp.services.apple import passes
        from webapp.services.passes import issuing

        values = {f["key"]: "x" for group in template.definition["config"]["fields"].values()
                  for f in group if f.get("binding") == "perPass"}
        item = issuing.issue(ctx, issuing.IssueRequest(template.id, values))
        token = passes.authentication_token(item)
        db.session.remove()

        downgrade(revision="0005")
        plain = db.session.execute(text("SELECT auth_token FROM passes")).scalar_one()
        db.session.remove()
        assert plain == token

        upgrade()
        sealed = db.session.execute(text("SELECT auth_token_encrypted FROM passes")).scalar_one()
        db.session.remove()
        assert token not in sealed
        from webapp.models import Pass

        assert passes.authentication_token(db.session.get(Pass, item.id)) == token
