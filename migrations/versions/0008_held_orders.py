"""held_orders: order lines a seat sent before their decision came due
(Die Stadt's early wall orders, issue 15); the resolver applies each when
its decision comes due (docs/service.md, "Held orders")

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 21:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'held_orders',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat_index', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('source', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_held_orders_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_held_orders')),
        sa.UniqueConstraint('game_id', 'seat_index', name=op.f('uq_held_orders_game_id_seat_index')),
    )


def downgrade() -> None:
    op.drop_table('held_orders')
