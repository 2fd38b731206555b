"""Bot seats and bot take-over (issue 27).

``seats.bot`` (the bot the host seated), ``seats.bot_standin`` (a bot plays
for the seat's person for now), ``games.bot_takeover`` (the host's option,
default on; off for the games created before, whose hosts never chose),
``games.person_paced`` (one person against bots with no deadline set: the
game waits for the person), ``absences.bot_after_cap``
(a bot plays for the absent player once the absence no longer moves deadlines).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('bot_takeover', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column('person_paced', sa.Boolean(), nullable=False, server_default=sa.false()))
    # games created before: their hosts never saw the option, so no bot takes over there
    op.execute(sa.text("UPDATE games SET bot_takeover = :off").bindparams(off=False))
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('bot', sa.String(16), nullable=True))
        batch.add_column(sa.Column('bot_standin', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('absences') as batch:
        batch.add_column(sa.Column('bot_after_cap', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('absences') as batch:
        batch.drop_column('bot_after_cap')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('bot_standin')
        batch.drop_column('bot')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('person_paced')
        batch.drop_column('bot_takeover')
