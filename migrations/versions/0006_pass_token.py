"""Apple's per-pass authenticationToken encrypted at rest (it must be recoverable for
pass.json, so it is encrypted with ENCRYPTION_KEYS rather than hashed).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 13:40:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    from webapp import vault

    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('auth_token_encrypted', sa.Text(), nullable=True))
    passes = sa.table('passes', sa.column('id', sa.String), sa.column('auth_token', sa.String),
                      sa.column('auth_token_encrypted', sa.Text))
    connection = op.get_bind()
    for pass_id, token in connection.execute(sa.select(passes.c.id, passes.c.auth_token)).all():
        connection.execute(passes.update().where(passes.c.id == pass_id).values(
            auth_token_encrypted=vault.encrypt(token.encode()).decode()))
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.alter_column('auth_token_encrypted', existing_type=sa.Text(), nullable=False)
        batch_op.drop_column('auth_token')


def downgrade():
    from webapp import vault

    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('auth_token', sa.String(length=64), nullable=True))
    passes = sa.table('passes', sa.column('id', sa.String), sa.column('auth_token', sa.String),
                      sa.column('auth_token_encrypted', sa.Text))
    connection = op.get_bind()
    rows = connection.execute(sa.select(passes.c.id, passes.c.auth_token_encrypted)).all()
    for pass_id, sealed in rows:
        connection.execute(passes.update().where(passes.c.id == pass_id).values(
            auth_token=vault.decrypt(sealed.encode()).decode()))
    with op.batch_alter_table('passes', schema=None) as batch_op:
        batch_op.alter_column('auth_token', existing_type=sa.String(length=64), nullable=False)
        batch_op.drop_column('auth_token_encrypted')
