"""Redemptions: check-in of passes (issue 18).

A `redemptions` table (one row per use of a pass; unique per pass and sequence number) and
each pass's `redemption_count` and `last_redeemed_at`, and an index that finds a pass by its
per-pass barcode value (what a scanner reads).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('redemptions',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('redeemed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('location', sa.String(length=100), nullable=True),
    sa.Column('scanned_by_user_id', sa.String(length=40), nullable=True),
    sa.Column('scanned_by_api_key_id', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_redemptions_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_redemptions_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_redemptions')),
    sa.UniqueConstraint('pass_id', 'sequence', name=op.f('uq_redemptions_pass_id_sequence'))
    )
    with op.batch_alter_table('redemptions', schema=None) as batch_op:
        batch_op.create_index('ix_redemptions_pass_id', ['pass_id', 'id'], unique=False)
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('redemption_count', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('last_redeemed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_passes_scope_barcode_value', ['organization_id', 'environment', 'barcode_value'], unique=False)


def downgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_index('ix_passes_scope_barcode_value')
        batch_op.drop_column('last_redeemed_at')
        batch_op.drop_column('redemption_count')
    with op.batch_alter_table('redemptions', schema=None) as batch_op:
        batch_op.drop_index('ix_redemptions_pass_id')
    op.drop_table('redemptions')
