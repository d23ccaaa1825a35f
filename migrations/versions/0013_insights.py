"""Insights facts and daily rollups (issue 19).

`insights_daily`: counts per organization, environment, metric, UTC day, template and
platform, raised in the same transaction as each fact. `pass_activities`: a pass's page
views, add intents and wallet installs/removals, for its timeline.

Backfilled from the facts that were already kept: passes issued, Apple registrations still
present, Google objects' saved/removed moments, and finished update deliveries. Page views
and add intents were not recorded before, and Apple registrations already ended are gone:
those start at zero.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('insights_daily',
    sa.Column('organization_id', sa.String(length=40), nullable=False),
    sa.Column('environment', sa.String(length=4), nullable=False),
    sa.Column('metric', sa.String(length=16), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('template_id', sa.String(length=40), nullable=False),
    sa.Column('platform', sa.String(length=6), nullable=False),
    sa.Column('count', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_insights_daily_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id', 'environment', 'metric', 'day', 'template_id', 'platform', name=op.f('pk_insights_daily'))
    )
    op.create_table('pass_activities',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('pass_id', sa.String(length=40), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('platform', sa.String(length=6), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pass_id'], ['passes.id'], name=op.f('fk_pass_activities_pass_id_passes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pass_activities'))
    )
    with op.batch_alter_table('pass_activities', schema=None) as batch_op:
        batch_op.create_index('ix_pass_activities_pass_id', ['pass_id', 'id'], unique=False)
    _backfill()


def _day(column):
    """SQL for the UTC day of a timestamp column."""
    if op.get_bind().dialect.name == 'postgresql':
        return f"(({column}) AT TIME ZONE 'UTC')::date"
    return f"date({column})"


def _rollup(metric, platform, source, day, where='TRUE'):
    """Add counts of `source` rows (joined to their pass `p`) to insights_daily."""
    platform_sql = f"'{platform}'" if platform != 'wallet' else 'a.platform'
    group_platform = ', a.platform' if platform == 'wallet' else ''
    op.execute(f"""
        INSERT INTO insights_daily (organization_id, environment, metric, day, template_id,
                                    platform, count)
        SELECT p.organization_id, p.environment, '{metric}', {day}, p.template_id,
               {platform_sql}, COUNT(*)
        FROM {source}
        WHERE {where}
        GROUP BY p.organization_id, p.environment, {day}, p.template_id{group_platform}""")


def _backfill():
    # The pass's own activity first: installs and removals known today.
    op.execute("""
        INSERT INTO pass_activities (pass_id, kind, platform, at)
        SELECT pass_id, 'added', 'apple', created_at FROM apple_registrations""")
    op.execute("""
        INSERT INTO pass_activities (pass_id, kind, platform, at)
        SELECT pass_id, 'added', 'google', saved_at FROM google_objects
        WHERE saved_at IS NOT NULL""")
    op.execute("""
        INSERT INTO pass_activities (pass_id, kind, platform, at)
        SELECT pass_id, 'removed', 'google', removed_at FROM google_objects
        WHERE saved_at IS NOT NULL AND wallet_state = 'removed' AND removed_at IS NOT NULL""")
    passes = 'passes p'
    _rollup('issued', 'all', passes, _day('p.created_at'))
    _rollup('issued', 'apple', passes, _day('p.created_at'), 'p.apple')
    _rollup('issued', 'google', passes, _day('p.created_at'), 'p.google')
    activities = 'pass_activities a JOIN passes p ON p.id = a.pass_id'
    for kind in ('added', 'removed'):
        _rollup(kind, 'wallet', activities, _day('a.at'), f"a.kind = '{kind}'")
    updates = 'pass_updates u JOIN passes p ON p.id = u.pass_id'
    outcomes = {'apple': {'delivered': "'sent', 'delivered'", 'failed': "'failed'"},
                'google': {'delivered': "'updated'", 'failed': "'failed'"}}
    for wallet, statuses in outcomes.items():
        for outcome, listed in statuses.items():
            _rollup(f'update_{outcome}', wallet, updates, _day('u.created_at'),
                    f"u.{wallet}_status IN ({listed})")
        _rollup('update_sent', wallet, updates, _day('u.created_at'),
                f"u.{wallet}_status IN ({statuses['delivered']}, {statuses['failed']})")


def downgrade():
    with op.batch_alter_table('pass_activities', schema=None) as batch_op:
        batch_op.drop_index('ix_pass_activities_pass_id')
    op.drop_table('pass_activities')
    op.drop_table('insights_daily')
