"""Webhooks and events: events, webhook endpoints, deliveries and their attempts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 12:00:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def _json():
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade():
    op.create_table('events',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('type', sa.String(length=40), nullable=False),
    sa.Column('data', _json(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_events_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events'))
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index('ix_events_created_at', ['created_at'], unique=False)
        batch_op.create_index('ix_events_scope_id', ['organization_id', 'environment', 'id'], unique=False)
        batch_op.create_index('ix_events_scope_type_id', ['organization_id', 'environment', 'type', 'id'], unique=False)

    op.create_table('webhook_endpoints',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('url', sa.String(length=2048), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=True),
    sa.Column('enabled_events', _json(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('disabled_reason', sa.String(length=10), nullable=True),
    sa.Column('secrets_encrypted', sa.LargeBinary(), nullable=False),
    sa.Column('failing_since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_webhook_endpoints_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_endpoints'))
    )
    with op.batch_alter_table('webhook_endpoints', schema=None) as batch_op:
        batch_op.create_index('ix_webhook_endpoints_scope_id', ['organization_id', 'environment', 'id'], unique=False)

    op.create_table('webhook_deliveries',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('endpoint_id', sa.String(length=40), nullable=False),
    sa.Column('event_id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('event_type', sa.String(length=40), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('failure_code', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['endpoint_id'], ['webhook_endpoints.id'], name=op.f('fk_webhook_deliveries_endpoint_id_webhook_endpoints'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_webhook_deliveries_event_id_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_deliveries'))
    )
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_webhook_deliveries_due', ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index('ix_webhook_deliveries_endpoint_id', ['endpoint_id', 'id'], unique=False)
        batch_op.create_index('ix_webhook_deliveries_event_id', ['event_id'], unique=False)

    op.create_table('webhook_attempts',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('delivery_id', sa.String(length=40), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('response_status', sa.Integer(), nullable=True),
    sa.Column('error_code', sa.String(length=40), nullable=True),
    sa.Column('error_message', sa.String(length=300), nullable=True),
    sa.Column('duration_ms', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['delivery_id'], ['webhook_deliveries.id'], name=op.f('fk_webhook_attempts_delivery_id_webhook_deliveries'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_attempts'))
    )
    with op.batch_alter_table('webhook_attempts', schema=None) as batch_op:
        batch_op.create_index('ix_webhook_attempts_delivery_id', ['delivery_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('webhook_attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_attempts_delivery_id')
    op.drop_table('webhook_attempts')
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_deliveries_event_id')
        batch_op.drop_index('ix_webhook_deliveries_endpoint_id')
        batch_op.drop_index('ix_webhook_deliveries_due')
    op.drop_table('webhook_deliveries')
    with op.batch_alter_table('webhook_endpoints', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_endpoints_scope_id')
    op.drop_table('webhook_endpoints')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index('ix_events_scope_type_id')
        batch_op.drop_index('ix_events_scope_id')
        batch_op.drop_index('ix_events_created_at')
    op.drop_table('events')
