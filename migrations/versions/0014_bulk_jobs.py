"""Bulk jobs (issue 17).

A `bulk_jobs` table (one row per job: what it does, its counts and the lease of the worker
that runs it) and `bulk_job_items` (one row per item: its input and its result; an item is
applied in the same transaction that marks it done, which makes a resumed job exact), and
each pass's optional `external_id`, unique per template and environment.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), 'postgresql')


def upgrade():
    op.create_table('bulk_jobs',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('operation', sa.String(length=8), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('template_id', sa.String(length=40), nullable=True),
    sa.Column('to_revision', sa.Integer(), nullable=True),
    sa.Column('notification_mode', sa.String(length=8), nullable=True),
    sa.Column('locale', sa.String(length=8), nullable=False),
    sa.Column('source', sa.String(length=10), nullable=False),
    sa.Column('created_by_api_key_id', sa.String(length=40), nullable=True),
    sa.Column('created_by_user_id', sa.String(length=40), nullable=True),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('succeeded', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.Column('canceled', sa.Integer(), nullable=False),
    sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_bulk_jobs_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bulk_jobs'))
    )
    with op.batch_alter_table('bulk_jobs', schema=None) as batch_op:
        batch_op.create_index('ix_bulk_jobs_scope_id', ['organization_id', 'environment', 'id'], unique=False)
        batch_op.create_index('ix_bulk_jobs_status', ['status', 'lease_until'], unique=False)
    op.create_table('bulk_job_items',
    sa.Column('job_id', sa.String(length=40), nullable=False),
    sa.Column('index', sa.Integer(), nullable=False),
    sa.Column('external_id', sa.String(length=200), nullable=True),
    sa.Column('input', JSON, nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=True),
    sa.Column('existing', sa.Boolean(), nullable=False),
    sa.Column('error', JSON, nullable=True),
    sa.ForeignKeyConstraint(['job_id'], ['bulk_jobs.id'], name=op.f('fk_bulk_job_items_job_id_bulk_jobs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('job_id', 'index', name=op.f('pk_bulk_job_items'))
    )
    with op.batch_alter_table('bulk_job_items', schema=None) as batch_op:
        batch_op.create_index('ix_bulk_job_items_status', ['job_id', 'status', 'index'], unique=False)
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('external_id', sa.String(length=200), nullable=True))
        batch_op.create_index('ux_passes_scope_template_external_id', ['organization_id', 'environment', 'template_id', 'external_id'], unique=True)


def downgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_index('ux_passes_scope_template_external_id')
        batch_op.drop_column('external_id')
    with op.batch_alter_table('bulk_job_items', schema=None) as batch_op:
        batch_op.drop_index('ix_bulk_job_items_status')
    op.drop_table('bulk_job_items')
    with op.batch_alter_table('bulk_jobs', schema=None) as batch_op:
        batch_op.drop_index('ix_bulk_jobs_status')
        batch_op.drop_index('ix_bulk_jobs_scope_id')
    op.drop_table('bulk_jobs')
