"""A stored answer's index by pass leads with the pass (issue 34): `(pass_id,
organization_id, environment)` instead of `(organization_id, environment, pass_id)`.

With the scope first, PostgreSQL's planner saw two equally good indexes for an
Idempotency-Key's lookup (`organization_id`, `environment`, `key`) until the table's first
ANALYZE, and took this one: every request with a key read all of the scope's answers
(0.6 ms at 2,000, growing with each request: a new installation's first minute of issuing
slowed by a third). Led by the pass, the index cannot serve that lookup; an erasure's two
reads (the pass's answers, and those about none) still search it on all three columns.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-30 04:00:00

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade():
    _create_index('ix_idempotency_records_pass_id', 'idempotency_records',
                  ['pass_id', 'organization_id', 'environment'])
    op.drop_index('ix_idempotency_records_scope_pass_id', table_name='idempotency_records')


def downgrade():
    _create_index('ix_idempotency_records_scope_pass_id', 'idempotency_records',
                  ['organization_id', 'environment', 'pass_id'])
    op.drop_index('ix_idempotency_records_pass_id', table_name='idempotency_records')


def _create_index(name, table, columns):
    """On PostgreSQL built CONCURRENTLY (outside the migration's transaction): the old nodes
    keep writing to the table while it builds, as they serve during an upgrade."""
    if op.get_bind().dialect.name == 'postgresql':
        with op.get_context().autocommit_block():
            op.create_index(name, table, columns, unique=False, postgresql_concurrently=True)
    else:
        op.create_index(name, table, columns, unique=False)
