"""games.host_notice_due_at: when the game's host notice waiting out its
delay is due (issue 24): a resolution releases waiting host notices only
when the game row says one waits, instead of an UPDATE of the outbox on
every resolution. Rows made before get NULL: a host notice already waiting
then goes at its own time.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29 01:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('host_notice_due_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('host_notice_due_at')
