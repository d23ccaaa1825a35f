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
    op.create_table('google_callback_nonces',
    sa.Column('nonce', sa.String(length=200), nullable=False),
    sa.Column('object_id', sa.String(length=200), nullable=False),
    sa.Column('event_type', sa.String(length=8), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('nonce', name=op.f('pk_google_callback_nonces'))
    )
    op.create_table('google_classes',
    sa.Column('id', sa.String(length=200), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('template_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('issuer_id', sa.String(length=40), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('written_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_google_classes_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['template_id'], ['templates.id'], name=op.f('fk_google_classes_template_id_templates'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_google_classes'))
    )
    with op.batch_alter_table('google_classes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_google_classes_organization_id'), ['organization_id'], unique=False)

    op.create_table('google_notifications',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('update_id', sa.String(length=40), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_google_notifications_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_google_notifications'))
    )
    with op.batch_alter_table('google_notifications', schema=None) as batch_op:
        batch_op.create_index('ix_google_notifications_pass_sent', ['pass_id', 'sent_at'], unique=False)

    op.create_table('google_objects',
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('issuer_id', sa.String(length=40), nullable=True),
    sa.Column('object_id', sa.String(length=200), nullable=True),
    sa.Column('class_id', sa.String(length=200), nullable=True),
    sa.Column('kind', sa.String(length=24), nullable=True),
    sa.Column('state', sa.String(length=8), nullable=False),
    sa.Column('reason', sa.String(length=40), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('wallet_state', sa.String(length=8), nullable=True),
    sa.Column('saved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_google_objects_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pass_id', name=op.f('pk_google_objects')),
    sa.UniqueConstraint('object_id', name=op.f('uq_google_objects_object_id'))
    )
    with op.batch_alter_table('google_objects', schema=None) as batch_op:
        batch_op.create_index('ix_google_objects_pending', ['state', 'next_attempt_at'], unique=False)


def downgrade():
    with op.batch_alter_table('google_objects', schema=None) as batch_op:
        batch_op.drop_index('ix_google_objects_pending')
    op.drop_table('google_objects')
    with op.batch_alter_table('google_notifications', schema=None) as batch_op:
        batch_op.drop_index('ix_google_notifications_pass_sent')
    op.drop_table('google_notifications')
    with op.batch_alter_table('google_classes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_google_classes_organization_id'))
    op.drop_table('google_classes')
    op.drop_table('google_callback_nonces')
