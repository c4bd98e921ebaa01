"""The bot ladder (issue 51): ``ladder_packs`` (each pack's seed, table and seatings,
stored before it is played; its lease while it is played), ``ladder_results`` (every
seat's score in every deal) and ``ladder_deals`` (each deal's moves and scores).

New tables only: every other row stays as it is.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-08 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ladder_packs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("seatings", sa.JSON(), nullable=False),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("slot", sa.BigInteger(), nullable=True),
        sa.Column("owner", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.BigInteger(), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slot"),
    )
    with op.batch_alter_table("ladder_packs") as batch:
        batch.create_index("ix_ladder_packs_finished", ["finished_ms"])
    op.create_table(
        "ladder_results",
        sa.Column("pack_id", sa.Integer(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("entrant", sa.String(length=80), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["pack_id"], ["ladder_packs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("pack_id", "deal", "seat"),
    )
    op.create_table(
        "ladder_deals",
        sa.Column("pack_id", sa.Integer(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["pack_id"], ["ladder_packs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("pack_id", "deal"),
    )


def downgrade() -> None:
    op.drop_table("ladder_deals")
    op.drop_table("ladder_results")
    with op.batch_alter_table("ladder_packs") as batch:
        batch.drop_index("ix_ladder_packs_finished")
    op.drop_table("ladder_packs")
