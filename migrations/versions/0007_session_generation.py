"""Dashboard sessions that end on the server: a per-user generation, raised by sign-out, a
new password or removal from an organization, is part of every session's ID.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 10:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
