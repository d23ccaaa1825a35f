"""Balances: loyalty cards' points and gift cards' money (issue 32).

A `balance_transactions` table (each earn or spend, with the balance after it) and each
pass's `balance` and `lifetime_points` (None on templates that keep no balance); a bulk
job's `operation` grows to 16 characters for `adjust_balance`.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29 06:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('balance_transactions',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('balance_after', sa.BigInteger(), nullable=False),
    sa.Column('reason', sa.String(length=100), nullable=True),
    sa.Column('reference', sa.String(length=200), nullable=True),
    sa.Column('source', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_balance_transactions_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_balance_transactions_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_balance_transactions'))
    )
    with op.batch_alter_table('balance_transactions', schema=None) as batch_op:
        batch_op.create_index('ix_balance_transactions_pass_id', ['pass_id', 'id'], unique=False)
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('balance', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('lifetime_points', sa.BigInteger(), nullable=True))
    with op.batch_alter_table('bulk_jobs', schema=None) as batch_op:
        batch_op.alter_column('operation', existing_type=sa.String(length=8),
                              type_=sa.String(length=16), existing_nullable=False)


def downgrade():
    with op.batch_alter_table('bulk_jobs', schema=None) as batch_op:
        batch_op.alter_column('operation', existing_type=sa.String(length=16),
                              type_=sa.String(length=8), existing_nullable=False)
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_column('lifetime_points')
        batch_op.drop_column('balance')
    with op.batch_alter_table('balance_transactions', schema=None) as batch_op:
        batch_op.drop_index('ix_balance_transactions_pass_id')
    op.drop_table('balance_transactions')
