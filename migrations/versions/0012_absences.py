"""Absences and the late player's grace (issue 25): absences, players' yearly budget, games' cap and grace settings.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('players', sa.Column('absence_budget_days', sa.Integer(), server_default='28', nullable=False))
    op.add_column('players', sa.Column('away_until', sa.DateTime(), nullable=True))
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('absence_cap_days', sa.Integer(), server_default='14', nullable=False))
        batch.add_column(sa.Column('absence_used_seconds', sa.Integer(), server_default='0', nullable=False))
        batch.add_column(sa.Column('grace_hours', sa.Integer(), server_default='0', nullable=False))
        batch.add_column(sa.Column('deadline_base_at', sa.DateTime(), nullable=True))
    op.add_column('seats', sa.Column('grace_step', sa.Integer(), nullable=True))
    op.create_table(
        'absences',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id', ondelete='CASCADE'), nullable=False),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=True),
        sa.Column('starts_at', sa.DateTime(), nullable=False),
        sa.Column('ends_at', sa.DateTime(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    )
    op.create_index('ix_absences_player_end', 'absences', ['player_id', 'ends_at'])
    op.create_table(
        'absence_shifts',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('seat_index', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id', ondelete='CASCADE'), nullable=False),
        sa.Column('seconds', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.UniqueConstraint('game_id', 'step'),
    )
    op.create_index('ix_absence_shifts_player', 'absence_shifts', ['player_id', 'created_at'])


def downgrade() -> None:
    op.drop_index('ix_absence_shifts_player', table_name='absence_shifts')
    op.drop_table('absence_shifts')
    op.drop_index('ix_absences_player_end', table_name='absences')
    op.drop_table('absences')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('grace_step')
    with op.batch_alter_table('games') as batch:
        for name in ('deadline_base_at', 'grace_hours', 'absence_used_seconds', 'absence_cap_days'):
            batch.drop_column(name)
    with op.batch_alter_table('players') as batch:
        batch.drop_column('away_until')
        batch.drop_column('absence_budget_days')
