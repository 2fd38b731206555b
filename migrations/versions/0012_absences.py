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
    pass


def downgrade() -> None:
    pass
