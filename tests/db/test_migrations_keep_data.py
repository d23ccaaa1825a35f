"""Going down and up the migrations on SQLite keeps every row: a table that batch mode rebuilds
(passes, when a column is dropped) must not take the rows that point at it along."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from tests.support.migrating import at_head


def _counts(db) -> dict[str, int]:
    tables = ("passes", "download_links", "pass_updates")
    return {t: db.session.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables}


def test_down_and_up_keeps_the_rows_that_point_at_passes(tmp_path: Path) -> None:
    from flask_migrate import downgrade, upgrade

    from webapp.extensions import db
    from webapp.services.passes import download_links, issuing
    from webapp.services.passes.issuing import IssueRequest

    url = f"sqlite:///{tmp_path / 'keep.sqlite'}"
    with at_head(tmp_path, url) as (ctx, template):
        issued = issuing.issue(ctx, IssueRequest(template_id=template.id,
                                                 field_values={"member": "Ada"}))
        download_links.create(ctx, issued.id)
        before = _counts(db)
        assert before["passes"] == 1 and before["download_links"] == 1
        db.session.remove()
        downgrade(revision="0005")
        assert _counts(db) == before
        upgrade()
        assert _counts(db) == before
