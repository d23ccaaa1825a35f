"""The pass an event is about (`events.pass_id`), for a pass's export and erasure (issue 34).

Both found a pass's events by reading every event of the scope as text for its ID: about
1 s at a million events on SQLite, inside the erasure's write transaction (other writers
wait). The column is what `webhooks.events.pass_of` says: `data.object.id` when the object
is a pass, else `data.object.passId` (a pass update, an email), null otherwise (bulk jobs,
messages, test events).
Events recorded before this revision are filled in from their data by the same rule.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29 22:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None

# `id` when the object is a pass, else `passId`; only a string counts.
FILL = {
    "sqlite": """
        UPDATE events SET pass_id = CASE
            WHEN json_extract(data, '$.object.object') = 'pass' THEN
                CASE WHEN json_type(data, '$.object.id') = 'text'
                    THEN json_extract(data, '$.object.id') END
            WHEN json_type(data, '$.object.passId') = 'text'
                THEN json_extract(data, '$.object.passId') END""",
    "postgresql": """
        UPDATE events SET pass_id = CASE
            WHEN data -> 'object' ->> 'object' = 'pass' THEN
                CASE WHEN jsonb_typeof(data -> 'object' -> 'id') = 'string'
                    THEN data -> 'object' ->> 'id' END
            WHEN jsonb_typeof(data -> 'object' -> 'passId') = 'string'
                THEN data -> 'object' ->> 'passId' END""",
}


def upgrade():
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pass_id', sa.String(length=40), nullable=True))
    op.execute(FILL[op.get_bind().dialect.name])
    op.create_index('ix_events_scope_pass_id', 'events',
                    ['organization_id', 'environment', 'pass_id', 'id'], unique=False)


def downgrade():
    op.drop_index('ix_events_scope_pass_id', table_name='events')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('pass_id')
