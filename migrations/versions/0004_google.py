"""Google Wallet: classes, objects, callbacks, message budget.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 12:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
