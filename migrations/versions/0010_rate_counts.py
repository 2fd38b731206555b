"""rate_counts: the inbound mail rate limits counted in the database, so
they hold across the one `pbem mail ingest` process an MTA runs per mail
(issue 22, "Seven holes")

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 18:50:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'rate_counts',
        sa.Column('bucket', sa.String(length=120), nullable=False),
        sa.Column('window_start', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('hits', sa.Integer(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('bucket', 'window_start', name=op.f('pk_rate_counts')),
    )
    with op.batch_alter_table('rate_counts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rate_counts_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rate_counts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_counts_expires_at'))
    op.drop_table('rate_counts')
