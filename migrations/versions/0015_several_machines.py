"""Several machines: uploads in the database, the installation's key check, resting webhook
endpoints and their due deliveries' index.

`uploads`: a dashboard import's file between its steps (it was kept on one node's disk).
`installation_values`: `encryption_check`, a token sealed with the encryption key, so a node
started with other keys refuses to start instead of failing on the first secret it reads.
`webhook_endpoints.resting_until`: after a failed attempt nothing is sent before this.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 12:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('installation_values',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_installation_values'))
    )
    op.create_table('uploads',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('user_id', sa.String(length=40), nullable=False),
    sa.Column('template_id', sa.String(length=40), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_uploads_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_uploads'))
    )
    with op.batch_alter_table('uploads', schema=None) as batch_op:
        batch_op.create_index('ix_uploads_created_at', ['created_at'], unique=False)
    with op.batch_alter_table('webhook_endpoints', schema=None) as batch_op:
        batch_op.add_column(sa.Column("resting_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_webhook_deliveries_endpoint_due', ['endpoint_id', 'status', 'next_attempt_at'], unique=False)


def downgrade():
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_deliveries_endpoint_due')
    with op.batch_alter_table('webhook_endpoints', schema=None) as batch_op:
        batch_op.drop_column('resting_until')
    with op.batch_alter_table('uploads', schema=None) as batch_op:
        batch_op.drop_index('ix_uploads_created_at')
    op.drop_table('uploads')
    op.drop_table('installation_values')
