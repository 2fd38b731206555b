"""Table talk (messages, mutes) and the group's channel (issue 26).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
