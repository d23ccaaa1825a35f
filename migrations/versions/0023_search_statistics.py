"""PostgreSQL: a finer sample of `passes.search_text` for the planner (issue 34).

A search is `search_text LIKE '%term%'`; the planner chooses between the trigram index
(read every match, then sort) and the passes newest first (stop after a page) from its
estimate of how many rows match, which it takes from the column's histogram. At the default
statistics target (100) a term held by a few thousand of a million passes matches no
histogram entry and is estimated at about 100 rows, so "grace hopper" (3,600 passes) read
and sorted every match: 30 ms p50, 274 ms p99 at a million passes. At 1,000 the estimates
follow the data (4,506 estimated for a surname held by 4,506) and that search reads the
newest passes instead: 8 ms p50, 28 ms p99 (docs/benchmarks.md). ANALYZE samples more
rows (about 5 s at a million passes); it runs here once so the new sample applies now.

Only over passes there are: analyzed empty, a new installation's `passes` counted as empty
rather than new to the planner, and each connection kept plans that read it whole for the
foreign-key checks of the rows that point at a pass, until autovacuum's first ANALYZE (a
new installation's first minute; docs/benchmarks.md. Fixed in this file after the fact:
databases that ran it before have long been analyzed again).

SQLite has no planner statistics of this kind: it decides with its FTS5 index (0018).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29 19:10:00

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None

TARGET = 1000


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"ALTER TABLE passes ALTER COLUMN search_text SET STATISTICS {TARGET}")
    if op.get_bind().exec_driver_sql("SELECT EXISTS (SELECT 1 FROM passes)").scalar():
        op.execute("ANALYZE passes (search_text)")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE passes ALTER COLUMN search_text SET STATISTICS -1")
