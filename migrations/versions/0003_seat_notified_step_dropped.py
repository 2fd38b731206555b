"""seats.last_notified_step dropped: it was written with every turn notice and
never read; the outbox rows (``turn:<game>:<step>:<seat>``) record each
notice a seat was sent

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 08:10:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('last_notified_step')


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_notified_step', sa.Integer(), nullable=True))
    # what the column held: the step of each seat's latest turn notice
    op.execute("UPDATE seats SET last_notified_step = (SELECT max(outbox.step) FROM outbox "
               "WHERE outbox.game_id = seats.game_id AND outbox.seat_index = seats.\"index\" "
               "AND outbox.kind = 'turn')")
