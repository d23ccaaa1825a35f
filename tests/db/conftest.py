"""Fixtures of the services' own tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from webapp.db import sqlite


@pytest.fixture
def lock_path(app) -> Path:
    """The SQLite writers' lock file (tests of it and of what it is for skip on PostgreSQL,
    which has no such lock)."""
    with app.app_context():
        database = sqlite.database_file()
    if database is None:
        pytest.skip("SQLite's writers' lock: PostgreSQL has none")
    return Path(f"{database}-writers.lock")
