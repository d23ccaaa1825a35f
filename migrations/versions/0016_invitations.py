"""Invitations to an organization (issue 31), and the index the per-address email cap reads.

`invitations`: an owner's invitation of an address; a membership once accepted through its
link, whose token is stored only as its SHA-256.
`ix_pass_emails_organization_created`: an organization's emails of the last hour.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29 06:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('invitations',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('invited_by', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_invitations_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invitations')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_invitations_token_hash'))
    )
    with op.batch_alter_table('invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invitations_organization_id'), ['organization_id'], unique=False)
    with op.batch_alter_table('pass_emails', schema=None) as batch_op:
        batch_op.create_index('ix_pass_emails_organization_created', ['organization_id', 'created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('pass_emails', schema=None) as batch_op:
        batch_op.drop_index('ix_pass_emails_organization_created')
    with op.batch_alter_table('invitations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invitations_organization_id'))
    op.drop_table('invitations')
