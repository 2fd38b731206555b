"""players: notification preferences (every move / my turn / daily digest /
none), "never invite me again", and the hard bounce that stopped mail to the
address (issue 13, "What pbem sends")

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 17:40:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notify_mode', sa.String(16), nullable=False,
                                      server_default='every'))
        batch_op.add_column(sa.Column('digest_hour', sa.Integer(), nullable=False,
                                      server_default='18'))
        batch_op.add_column(sa.Column('no_invites', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('bounced_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('bounce_reason', sa.String(300), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        for col in ('bounce_reason', 'bounced_at', 'no_invites', 'digest_hour', 'notify_mode'):
            batch_op.drop_column(col)
