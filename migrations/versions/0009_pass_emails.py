"""Emails of passes to their holders: what was queued, sent or failed, and the retry state.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 10:00:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('pass_emails',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('to_address', sa.String(length=254), nullable=False),
    sa.Column('locale', sa.String(length=5), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('error', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_pass_emails_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pass_emails'))
    )
    with op.batch_alter_table('pass_emails', schema=None) as batch_op:
        batch_op.create_index('ix_pass_emails_due', ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index('ix_pass_emails_pass_id', ['pass_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('pass_emails', schema=None) as batch_op:
        batch_op.drop_index('ix_pass_emails_pass_id')
        batch_op.drop_index('ix_pass_emails_due')
    op.drop_table('pass_emails')
