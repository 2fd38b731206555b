"""games.phase_msg: the phase as the engine worded it, so pages show it in the
reader's language (issue 16)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 21:55:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('phase_msg', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('phase_msg')
