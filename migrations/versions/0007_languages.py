"""players: language (issue 16): the chosen language, whether the player chose
it (else the host's guess or the browser's Accept-Language), and when they
first signed in (the browser's time zone and language are taken then)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 20:30:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(8), nullable=False, server_default='en'))
        batch_op.add_column(sa.Column('language_chosen', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('first_signin_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        for col in ('first_signin_at', 'language_chosen', 'language'):
            batch_op.drop_column(col)
