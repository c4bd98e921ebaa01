"""The guards of issue 46: a deal of the day's play keeps its account (one play per
account and deal) and what is kept of its address (ranked plays per address); where
accounts were seen (an address, a player key), and the seats a rating ignored.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("daily_plays") as batch:
        batch.add_column(sa.Column("account_id", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("address_hash", sa.String(length=32), nullable=True))
        batch.create_index("ux_daily_plays_account", ["day", "players", "account_id"], unique=True)
    op.create_table(
        "account_sightings",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("value_hash", sa.String(length=64), nullable=False),
        sa.Column("last_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "kind", "value_hash"),
    )
    with op.batch_alter_table("account_sightings") as batch:
        batch.create_index("ix_account_sightings_value", ["kind", "value_hash", "last_ms"])
    op.create_table(
        "rating_apart",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("other", sa.Integer(), nullable=False),
        sa.Column("why", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id", "match_no"],
            ["rated_matches.room_id", "rated_matches.match_no"],
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "match_no", "seat", "other"),
    )


def downgrade() -> None:
    op.drop_table("rating_apart")
    with op.batch_alter_table("account_sightings") as batch:
        batch.drop_index("ix_account_sightings_value")
    op.drop_table("account_sightings")
    with op.batch_alter_table("daily_plays") as batch:
        batch.drop_index("ux_daily_plays_account")
        batch.drop_column("address_hash")
        batch.drop_column("account_id")
