"""Passes at a million: indexes for the list filters, and on SQLite a trigram FTS5 index for
`search` (issue 34).

`(organization_id, environment, status, id)` and `(..., source, id)` answer `status=` and
`source=` newest first without reading the whole scope (on both databases).

SQLite: `passes_search`, an FTS5 table with the trigram tokenizer over `passes.search_text`,
an external-content table (it stores no second copy of the text) keyed by the passes' rowid.
Triggers keep it in step, inside the statement that writes the pass, so in its transaction:
every write (the services' Core INSERTs, ORM updates, the organization's cascade, a bulk
job, a hand-written statement) is covered without a second write path to forget. The
tokenizer is case-sensitive because `search_text` is already folded in Python; queries
re-check with today's LIKE (`services/passes/queries.py`), so results are exactly today's.

Beware: a later SQLite batch migration that recreates `passes` (`batch_alter_table` with a
column change) drops these triggers and renumbers rowids; it must recreate them and rebuild
the index (`tests/db/test_schema.py` checks both at the head). PostgreSQL keeps its trigram
GIN index (0002).

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 06:00:00

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None

FTS_TABLE = "CREATE VIRTUAL TABLE passes_search USING fts5(search_text, content='passes', " \
    "content_rowid='rowid', tokenize='trigram case_sensitive 1')"
# An external-content FTS5 index is told the old text to forget it ('delete').
TRIGGERS = (
    "CREATE TRIGGER passes_search_insert AFTER INSERT ON passes BEGIN "
    "INSERT INTO passes_search (rowid, search_text) VALUES (new.rowid, new.search_text); END",
    "CREATE TRIGGER passes_search_delete AFTER DELETE ON passes BEGIN "
    "INSERT INTO passes_search (passes_search, rowid, search_text) "
    "VALUES ('delete', old.rowid, old.search_text); END",
    "CREATE TRIGGER passes_search_update AFTER UPDATE OF search_text ON passes BEGIN "
    "INSERT INTO passes_search (passes_search, rowid, search_text) "
    "VALUES ('delete', old.rowid, old.search_text); "
    "INSERT INTO passes_search (rowid, search_text) VALUES (new.rowid, new.search_text); END",
)


def upgrade():
    op.create_index('ix_passes_scope_status_id', 'passes',
                    ['organization_id', 'environment', 'status', 'id'], unique=False)
    op.create_index('ix_passes_scope_source_id', 'passes',
                    ['organization_id', 'environment', 'source', 'id'], unique=False)
    if op.get_bind().dialect.name == "sqlite":
        op.execute(FTS_TABLE)
        for trigger in TRIGGERS:
            op.execute(trigger)
        op.execute("INSERT INTO passes_search (passes_search) VALUES ('rebuild')")


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        for name in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS passes_search_{name}")
        op.execute("DROP TABLE IF EXISTS passes_search")
    op.drop_index('ix_passes_scope_source_id', table_name='passes')
    op.drop_index('ix_passes_scope_status_id', table_name='passes')
