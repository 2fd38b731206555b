"""games.seed holds seeds of any size (128-bit secret seeds, issue 12);
players.session_version ends every session of a player at sign-out

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 17:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # existing 48-bit seeds become their decimal text: the same int reads back
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('seed', existing_type=sa.BigInteger(), type_=sa.String(80),
                              postgresql_using='seed::text')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_version', sa.Integer(), nullable=False,
                                      server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('session_version')
    # a seed over 63 bits cannot go back; this fails rather than truncate it
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('seed', existing_type=sa.String(80), type_=sa.BigInteger(),
                              postgresql_using='seed::bigint')
