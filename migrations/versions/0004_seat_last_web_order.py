"""seats.last_web_order_at: when the seat's latest applied orders came from
the web page; a turn notice to a seat played live on the page waits a short
grace before it is sent (docs/service.md, "Live play")

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 12:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL for every existing seat: nobody counts as playing live until
    # their next order from the web page
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_web_order_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('last_web_order_at')
