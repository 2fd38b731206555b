"""players.language "" means "nobody has said yet" (issue 22): a player who
never signed in and never chose a language reads the pages in the browser's
language, and the host's choice (or the browser's at the first sign-in)
may still set it. Rows made before kept the old default "en", which stood
for nothing: they become "".

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 19:00:00
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

players = sa.table('players', sa.column('language', sa.String(8)), sa.column('language_chosen', sa.Boolean()),
                   sa.column('first_signin_at', sa.DateTime()))


def upgrade() -> None:
    op.execute(players.update().where(players.c.language == 'en', players.c.language_chosen.is_(sa.false()),
                                      players.c.first_signin_at.is_(None)).values(language=''))


def downgrade() -> None:
    op.execute(players.update().where(players.c.language == '').values(language='en'))
