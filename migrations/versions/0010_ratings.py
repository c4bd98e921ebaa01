"""Ratings (issue 34): the rated matches (one row each: a match is rated once), each
seat's result in them, and the accounts' ratings per player count.

Revision ID: 0010
Revises: 0009 (the accounts' tables, which the ratings refer to)
Create Date: 2026-12-04 15:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_matches",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("void", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "match_no"),
    )
    op.create_table(
        "rating_results",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id", "match_no"],
            ["rated_matches.room_id", "rated_matches.match_no"],
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("room_id", "match_no", "seat"),
    )
    op.create_index("ix_rating_results_account_id", "rating_results", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "players"),
    )
    op.create_index("ix_ratings_players_ordinal", "ratings", ["players", "ordinal"])


def downgrade() -> None:
    op.drop_index("ix_ratings_players_ordinal", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rating_results_account_id", table_name="rating_results")
    op.drop_table("rating_results")
    op.drop_table("rated_matches")
