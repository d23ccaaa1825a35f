"""Tags on passes (issue 33): the pass's `tags` as it shows them, and `pass_tags`, one row
per tag, indexed (organization, environment, tag, pass) for `GET /v1/passes?tag=`.

`passes.tags` is added with ALTER TABLE ADD COLUMN (SQLite's batch mode does not recreate
the table for it, so 0018's search triggers stay). Passes issued before it have no tags
(NULL, shown as []).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29 07:10:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'tags', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()),
                                           'postgresql'), nullable=True))
    op.create_table(
        'pass_tags',
        sa.Column('pass_id', sa.String(length=40), nullable=False),
        sa.Column('tag', sa.String(length=40), nullable=False),
        sa.Column('organization_id', sa.String(length=40), nullable=False),
        sa.Column('environment', sa.String(length=4), nullable=False),
        sa.ForeignKeyConstraint(['pass_id'], ['passes.id'],
                                name=op.f('fk_pass_tags_pass_id_passes'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('pass_id', 'tag', name=op.f('pk_pass_tags')),
    )
    op.create_index('ix_pass_tags_scope_tag_pass', 'pass_tags',
                    ['organization_id', 'environment', 'tag', 'pass_id'], unique=False)


def downgrade():
    op.drop_index('ix_pass_tags_scope_tag_pass', table_name='pass_tags')
    op.drop_table('pass_tags')
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_column('tags')
