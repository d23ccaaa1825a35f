"""The pass a stored answer is about (`idempotency_records.pass_id`), for a pass's erasure
(issue 34).

An erasure opened every stored answer of the scope (its day of idempotent requests) to look
for the holder's data: at a million issues a day, seconds inside its write transaction. A
successful answer about one pass (an issue, an update, a redemption) holds only that pass's
data, so the erasure opens those naming the pass and those naming none (errors, bulk jobs,
messages, dashboard forms). Answers stored before this revision name none: they are opened as
before until they expire (24 hours).

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-30 01:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('idempotency_records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pass_id', sa.String(length=40), nullable=True))
    op.create_index('ix_idempotency_records_scope_pass_id', 'idempotency_records',
                    ['organization_id', 'environment', 'pass_id'], unique=False)


def downgrade():
    op.drop_index('ix_idempotency_records_scope_pass_id', table_name='idempotency_records')
    with op.batch_alter_table('idempotency_records', schema=None) as batch_op:
        batch_op.drop_column('pass_id')
