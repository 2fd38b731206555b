"""Bot seats and bot take-over (issue 27).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29 00:40:00
"""
from __future__ import annotations

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
