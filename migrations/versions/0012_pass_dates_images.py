"""Per-pass dates and images (issue 20).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('expires_at', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('relevant_date', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column(
            'images', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()),
                                             'postgresql'), nullable=True))


def downgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_column('images')
        batch_op.drop_column('relevant_date')
        batch_op.drop_column('expires_at')
