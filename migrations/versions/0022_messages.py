"""Messages to pass holders (issue 33): `messages`; the pass's last message
(`passes.message`, the Apple back field); a pass update's message and whether Google
notified (`pass_updates.message_id`, `google_notified`).

Columns are added with ALTER TABLE ADD COLUMN (SQLite's batch mode does not recreate the
tables for them, so 0018's search triggers stay).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29 09:20:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def _json():
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade():
    op.create_table(
        'messages',
        sa.Column('id', sa.String(length=40), nullable=False),
        sa.Column('organization_id', sa.String(length=40), nullable=False),
        sa.Column('environment', sa.String(length=4), nullable=False),
        sa.Column('source', sa.String(length=10), nullable=False),
        sa.Column('header', sa.String(length=100), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('audience', _json(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('send_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('audience_size', sa.Integer(), nullable=False),
        sa.Column('processed', sa.Integer(), nullable=False),
        sa.Column('cursor', sa.String(length=40), nullable=True),
        sa.Column('skipped', _json(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('canceled_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                                name=op.f('fk_messages_organization_id_organizations'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_messages')),
    )
    op.create_index('ix_messages_scope_id', 'messages',
                    ['organization_id', 'environment', 'id'], unique=False)
    op.create_index('ix_messages_status_send_at', 'messages', ['status', 'send_at'],
                    unique=False)
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message', _json(), nullable=True))
    with op.batch_alter_table('pass_updates', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message_id', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('google_notified', sa.Boolean(), nullable=True))
    op.create_index('ix_pass_updates_message_id', 'pass_updates', ['message_id'],
                    unique=False)


def downgrade():
    op.drop_index('ix_pass_updates_message_id', table_name='pass_updates')
    with op.batch_alter_table('pass_updates', schema=None) as batch_op:
        batch_op.drop_column('google_notified')
        batch_op.drop_column('message_id')
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.drop_column('message')
    op.drop_index('ix_messages_status_send_at', table_name='messages')
    op.drop_index('ix_messages_scope_id', table_name='messages')
    op.drop_table('messages')
