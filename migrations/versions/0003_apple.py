"""Apple Wallet: device registrations, update tags, APNs state.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 12:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
