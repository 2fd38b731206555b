"""Calendar feeds, spectator links and game records (issue 25).

``players.calendar_nonce``: the random part of a player's calendar feed
link (the link is an HMAC of it; ``NULL``: no feed). ``games.spectator_nonce``
the same for a game's spectator link (``NULL``: not watchable) and
``games.spectator_delay``: spectators see the board one turn behind. Game
records need no table (they are read from the moves and events).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('calendar_nonce', sa.String(length=32), nullable=True))
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('spectator_nonce', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('spectator_delay', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('spectator_delay')
        batch.drop_column('spectator_nonce')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('calendar_nonce')
