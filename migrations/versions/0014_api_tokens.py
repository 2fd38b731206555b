"""Personal access tokens, idempotency keys and webhooks of the public API (issue 28).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'api_tokens',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('name', sa.String(100), nullable=False),
        sa.Column('token_hash', sa.String(64), nullable=False, unique=True),
        sa.Column('prefix', sa.String(16), nullable=False),
        sa.Column('scope', sa.String(8), nullable=False),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('revoked_at', sa.DateTime(), nullable=True),
        sa.Column('last_used_at', sa.DateTime(), nullable=True),
    )
    op.create_index('ix_api_tokens_player_id', 'api_tokens', ['player_id'])
    op.create_table(
        'api_idempotency',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('token_id', sa.Integer(), sa.ForeignKey('api_tokens.id', ondelete='CASCADE'), nullable=False),
        sa.Column('key', sa.String(200), nullable=False),
        sa.Column('fingerprint', sa.String(64), nullable=False),
        sa.Column('status', sa.Integer(), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.UniqueConstraint('token_id', 'key'),
    )
    op.create_index('ix_api_idempotency_created_at', 'api_idempotency', ['created_at'])
    op.create_table(
        'api_webhooks',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('token_id', sa.Integer(), sa.ForeignKey('api_tokens.id', ondelete='CASCADE'), nullable=False),
        sa.Column('url', sa.String(2000), nullable=False),
        sa.Column('secret', sa.String(64), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('disabled_at', sa.DateTime(), nullable=True),
        sa.Column('last_error', sa.String(300), nullable=False),
    )
    op.create_index('ix_api_webhooks_token_id', 'api_webhooks', ['token_id'])
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('api_webhooks', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('api_webhooks')
    op.drop_index('ix_api_webhooks_token_id', table_name='api_webhooks')
    op.drop_table('api_webhooks')
    op.drop_index('ix_api_idempotency_created_at', table_name='api_idempotency')
    op.drop_table('api_idempotency')
    op.drop_index('ix_api_tokens_player_id', table_name='api_tokens')
    op.drop_table('api_tokens')
