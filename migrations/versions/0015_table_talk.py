"""Table talk (messages, recipients, mutes, read marks), the group's
channel, the host's talk setting and the players' message mail (issue 26).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('talk', sa.String(8), nullable=False, server_default='full'))
        batch.add_column(sa.Column('channel_on', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('talk_mail', sa.String(8), nullable=False, server_default='every'))
    op.create_table(
        'talk_messages',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=False),
        sa.Column('seat_index', sa.Integer(), nullable=False),
        sa.Column('author_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('to_all', sa.Boolean(), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('source', sa.String(16), nullable=False),
        sa.Column('hidden_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    )
    op.create_index('ix_talk_messages_game_id', 'talk_messages', ['game_id', 'id'])
    op.create_table(
        'talk_recipients',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('message_id', sa.Integer(), sa.ForeignKey('talk_messages.id', ondelete='CASCADE'), nullable=False),
        sa.Column('seat_index', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.UniqueConstraint('message_id', 'seat_index'),
    )
    op.create_index('ix_talk_recipients_player_id', 'talk_recipients', ['player_id'])
    op.create_table(
        'talk_mutes',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('muted_seat', sa.Integer(), nullable=False),
        sa.UniqueConstraint('game_id', 'player_id', 'muted_seat'),
    )
    op.create_table(
        'talk_reads',
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('seat_index', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('seen_id', sa.Integer(), nullable=False),
        sa.Column('mailed_id', sa.Integer(), nullable=False),
        sa.Column('mailed_at', sa.DateTime(), nullable=True),
    )
    op.create_table(
        'game_channels',
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('url', sa.Text(), nullable=False),
        sa.Column('service', sa.String(60), nullable=False),
        sa.Column('lang', sa.String(8), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('game_channels')
    op.drop_table('talk_reads')
    op.drop_table('talk_mutes')
    op.drop_index('ix_talk_recipients_player_id', table_name='talk_recipients')
    op.drop_table('talk_recipients')
    op.drop_index('ix_talk_messages_game_id', table_name='talk_messages')
    op.drop_table('talk_messages')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('talk_mail')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('channel_on')
        batch.drop_column('talk')
