"""The deal of the day (issue 32): each day's seed per player count, and the plays.

Revision ID: 0017
Revises: 0014
Create Date: 2026-12-04 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("day", "players"),
    )
    op.create_table(
        "daily_plays",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("player_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("day", "players", "player_hash"),
        sa.UniqueConstraint("room_id"),
    )
    with op.batch_alter_table("daily_plays") as batch:
        batch.create_index("ix_daily_plays_results", ["day", "players", "points"])


def downgrade() -> None:
    with op.batch_alter_table("daily_plays") as batch:
        batch.drop_index("ix_daily_plays_results")
    op.drop_table("daily_plays")
    op.drop_table("daily_deals")
