"""Sign-up pages (issue 33): `enrollment_links` (a template's /join/<slug> per environment;
replaced ones kept, retired, so their pages say sign-ups are closed) and `enrollments` (one
row per person and template and environment, keyed by a hash of the normalised email: the
one-person-one-pass rule is the primary key, safe under simultaneous sign-ups).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29 09:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'enrollment_links',
        sa.Column('slug', sa.String(length=40), nullable=False),
        sa.Column('template_id', sa.String(length=40), nullable=False),
        sa.Column('organization_id', sa.String(length=40), nullable=False),
        sa.Column('environment', sa.String(length=4), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                                name=op.f('fk_enrollment_links_organization_id_organizations'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['template_id'], ['templates.id'],
                                name=op.f('fk_enrollment_links_template_id_templates'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('slug', name=op.f('pk_enrollment_links')),
    )
    op.create_index('ix_enrollment_links_template_environment', 'enrollment_links',
                    ['template_id', 'environment'], unique=False)
    op.create_table(
        'enrollments',
        sa.Column('template_id', sa.String(length=40), nullable=False),
        sa.Column('environment', sa.String(length=4), nullable=False),
        sa.Column('email_hash', sa.String(length=64), nullable=False),
        sa.Column('organization_id', sa.String(length=40), nullable=False),
        sa.Column('pass_id', sa.String(length=40), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'],
                                name=op.f('fk_enrollments_organization_id_organizations'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['pass_id'], ['passes.id'],
                                name=op.f('fk_enrollments_pass_id_passes'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['template_id'], ['templates.id'],
                                name=op.f('fk_enrollments_template_id_templates'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('template_id', 'environment', 'email_hash',
                                name=op.f('pk_enrollments')),
    )


def downgrade():
    op.drop_table('enrollments')
    op.drop_index('ix_enrollment_links_template_environment', table_name='enrollment_links')
    op.drop_table('enrollment_links')
