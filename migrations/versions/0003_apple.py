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
    counters = op.create_table('apple_counters',
    sa.Column('name', sa.String(length=16), nullable=False),
    sa.Column('value', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_apple_counters'))
    )
    op.bulk_insert(counters, [{'name': 'tag', 'value': 0}])
    op.create_table('apple_pass_states',
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('tag', sa.BigInteger(), nullable=False),
    sa.Column('last_modified', sa.DateTime(timezone=True), nullable=False),
    sa.Column('fetched_version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_apple_pass_states_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pass_id', name=op.f('pk_apple_pass_states'))
    )
    with op.batch_alter_table('apple_pass_states', schema=None) as batch_op:
        batch_op.create_index('ix_apple_pass_states_tag', ['tag'], unique=False)

    op.create_table('apple_registrations',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('device_library_id', sa.String(length=128), nullable=False),
    sa.Column('pass_type_identifier', sa.String(length=255), nullable=False),
    sa.Column('push_token', sa.Text(), nullable=False),
    sa.Column('pushed_version', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_apple_registrations_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_apple_registrations')),
    sa.UniqueConstraint('device_library_id', 'pass_id', name=op.f('uq_apple_registrations_device_library_id_pass_id'))
    )
    with op.batch_alter_table('apple_registrations', schema=None) as batch_op:
        batch_op.create_index('ix_apple_registrations_device', ['device_library_id', 'pass_type_identifier'], unique=False)
        batch_op.create_index('ix_apple_registrations_pass_id', ['pass_id'], unique=False)


def downgrade():
    with op.batch_alter_table('apple_registrations', schema=None) as batch_op:
        batch_op.drop_index('ix_apple_registrations_pass_id')
        batch_op.drop_index('ix_apple_registrations_device')

    op.drop_table('apple_registrations')
    with op.batch_alter_table('apple_pass_states', schema=None) as batch_op:
        batch_op.drop_index('ix_apple_pass_states_tag')

    op.drop_table('apple_pass_states')
    op.drop_table('apple_counters')
