"""What a pass's erasure and export look up by pass (issue 34): the pass a stored answer is
about (`idempotency_records.pass_id`), and indexes of bulk job items by pass and by externalId,
of sign-ups by pass, and of an organization's unfinished uploads.

An erasure opened every stored answer of the scope (its day of idempotent requests) to look
for the holder's data: at a million issues a day, 20 s inside its write transaction. A
successful answer about one pass (an issue, an update, a redemption) holds only that pass's
data, so the erasure opens those naming the pass and those naming none (errors, bulk jobs,
messages, dashboard forms). Answers stored before this revision name none: they are opened
as before until they expire (24 hours).

It also read every bulk job item of the installation (37 s at a million items, past
gunicorn's 30 s) and every sign-up. Items are indexed by `(pass_id, status)` (the items never
applied name no pass) and by `external_id`.

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
    _create_index('ix_idempotency_records_scope_pass_id', 'idempotency_records',
                  ['organization_id', 'environment', 'pass_id'])
    _create_index('ix_bulk_job_items_pass_id', 'bulk_job_items', ['pass_id', 'status'])
    _create_index('ix_bulk_job_items_external_id', 'bulk_job_items', ['external_id'])
    _create_index('ix_enrollments_pass_id', 'enrollments', ['pass_id'])
    _create_index('ix_uploads_scope', 'uploads', ['organization_id', 'environment'])


def downgrade():
    op.drop_index('ix_uploads_scope', table_name='uploads')
    op.drop_index('ix_enrollments_pass_id', table_name='enrollments')
    op.drop_index('ix_bulk_job_items_external_id', table_name='bulk_job_items')
    op.drop_index('ix_bulk_job_items_pass_id', table_name='bulk_job_items')
    op.drop_index('ix_idempotency_records_scope_pass_id', table_name='idempotency_records')
    with op.batch_alter_table('idempotency_records', schema=None) as batch_op:
        batch_op.drop_column('pass_id')


def _create_index(name, table, columns):
    """On PostgreSQL built CONCURRENTLY (outside the migration's transaction): the old nodes
    keep writing to the table while it builds, as they serve during an upgrade."""
    if op.get_bind().dialect.name == 'postgresql':
        with op.get_context().autocommit_block():
            op.create_index(name, table, columns, unique=False, postgresql_concurrently=True)
    else:
        op.create_index(name, table, columns, unique=False)
