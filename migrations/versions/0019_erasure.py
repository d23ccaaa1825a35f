"""Erasing a pass's holder (issue 33): when it was done.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29 07:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0019'
# The lead re-chains at merge (asked for '0015'; main's head is '0016' already, and two
# heads would stop `upgrade head`).
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('erased_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_column('erased_at')
