"""Restricted API keys: permissions per resource (null: full access, as every key before).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 20:30:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'permissions', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'),
            nullable=True))


def downgrade():
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.drop_column('permissions')
