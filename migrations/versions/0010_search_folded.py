"""Pass search ignores accents: recompute `passes.search_text` in the folded form (data only).

Both sides of a search are folded in Python (`webapp.domain.search`), so the same LIKE and
PostgreSQL's trigram index answer "Muller" with "Müller". Existing passes are read in chunks
by id, and only those whose text changes are written: a million passes are never in memory
at once, and plain ASCII names (which fold to what lower() gave) cost no write.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

CHUNK = 5000
passes = sa.table('passes', sa.column('id', sa.String), sa.column('holder_name', sa.String),
                  sa.column('holder_email', sa.String), sa.column('short_id', sa.String),
                  sa.column('search_text', sa.Text))


def upgrade():
    from webapp.domain import search

    _recompute(search.search_text)


def downgrade():
    _recompute(_lower_cased)


def _lower_cased(*parts):
    """The form before 0010: the parts joined and lower-cased."""
    return "\x1f".join(part or "" for part in parts).lower()


def _recompute(search_text):
    connection = op.get_bind()
    change = passes.update().where(passes.c.id == sa.bindparam('pass_id')).values(
        search_text=sa.bindparam('new_text'))
    read = sa.select(passes.c.id, passes.c.holder_name, passes.c.holder_email,
                     passes.c.short_id, passes.c.search_text).order_by(passes.c.id).limit(CHUNK)
    after = ''
    while rows := connection.execute(read.where(passes.c.id > after)).all():
        changed = []
        for row in rows:
            text = search_text(row.holder_name, row.holder_email, row.short_id)
            if text != row.search_text:
                changed.append({'pass_id': row.id, 'new_text': text})
        if changed:
            connection.execute(change, changed)
        after = rows[-1].id
