"""A stored answer's index by pass leads with the pass (issue 34): `(pass_id,
organization_id, environment)` instead of `(organization_id, environment, pass_id)`.

With the scope first, PostgreSQL's planner saw two equally good indexes for an
Idempotency-Key's lookup (`organization_id`, `environment`, `key`) until the table's first
ANALYZE, and took this one: every request with a key read all of the scope's answers
(0.6 ms at 2,000, growing with each request, through a new installation's first minute;
docs/benchmarks.md). Led by the pass, the index cannot serve that lookup; an erasure's two
reads (the pass's answers, and those about none) still search it on all three columns.
Both steps run CONCURRENTLY on PostgreSQL: every idempotent request uses the table, and old
nodes keep serving during an upgrade.

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
    _replace_index('ix_idempotency_records_scope_pass_id', 'ix_idempotency_records_pass_id',
                   ['pass_id', 'organization_id', 'environment'])


def downgrade():
    _replace_index('ix_idempotency_records_pass_id', 'ix_idempotency_records_scope_pass_id',
                   ['organization_id', 'environment', 'pass_id'])


def _replace_index(old, new, columns):
    """Build `new`, then drop `old`; on PostgreSQL both CONCURRENTLY (outside the migration's
    transaction), so writers never wait for the table's lock."""
    table = 'idempotency_records'
    if op.get_bind().dialect.name == 'postgresql':
        with op.get_context().autocommit_block():
            op.create_index(new, table, columns, unique=False, postgresql_concurrently=True)
            op.drop_index(old, table_name=table, postgresql_concurrently=True)
    else:
        op.create_index(new, table, columns, unique=False)
        op.drop_index(old, table_name=table)
