"""Sign-ups keep their consent (issue 33's export): `enrollments.consent`, the sentence the
person ticked as the page showed it, and `consented_at`; null where the page asked for none
and for sign-ups made before this revision (what they ticked was not kept).

Columns are added with ALTER TABLE ADD COLUMN (SQLite's batch mode does not recreate the
table for them).

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29 19:45:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('enrollments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('consent', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('consented_at', sa.DateTime(timezone=True),
                                      nullable=True))


def downgrade():
    with op.batch_alter_table('enrollments', schema=None) as batch_op:
        batch_op.drop_column('consented_at')
        batch_op.drop_column('consent')
