"""deferred turn notices: outbox.raw may be empty until delivery, outbox.step

A turn notice is written with the turn's transaction as a row naming its
game, seat and step, and composed when it is delivered (or marked
``superseded`` when the seat has moved by then).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 05:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('step', sa.Integer(), nullable=True))
        batch_op.alter_column('raw', existing_type=sa.LargeBinary(), nullable=True)


def downgrade() -> None:
    # rows never composed cannot be kept without bytes
    op.execute("DELETE FROM outbox WHERE raw IS NULL")
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('raw', existing_type=sa.LargeBinary(), nullable=False)
        batch_op.drop_column('step')
