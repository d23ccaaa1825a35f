"""Webhooks and events.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 12:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
