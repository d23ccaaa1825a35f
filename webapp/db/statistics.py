"""`analyze(*tables)`: refresh PostgreSQL's planner statistics after a bulk write.

PostgreSQL plans from statistics that autovacuum refreshes about a minute after a table
has grown by a tenth; until then a table filled by a first big import still looks empty, and
a lookup such as a chunk's `external_id IN (...)` is planned as a scan of the template's
passes, which slows every chunk as the table grows (the PostgreSQL manual's advice: "run
ANALYZE afterwards"). SQLite plans well without statistics: nothing to do there.
"""

from __future__ import annotations

from sqlalchemy import text

from webapp.extensions import db


def analyze(*tables: str) -> None:
    """ANALYZE the tables (names from the code, never from input), in a short transaction of
    its own: it takes no lock that reads or writes wait for."""
    if db.engine.dialect.name != "postgresql":
        return
    with db.engine.connect() as connection:
        for table in tables:
            connection.execute(text(f'ANALYZE "{table}"'))
        connection.commit()
