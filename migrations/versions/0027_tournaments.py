"""Tournaments (issue 49): ``tournaments`` (each event and its plan),
``tournament_entries`` (who registered), ``tournament_boards`` (a duplicate event's
deal seeds and their published hashes), ``tournament_tables`` (who sits where at
each stage, and the room) and ``tournament_results`` (each seat's total, stored once).

New tables only: every other row stays as it is.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def _of_event(*columns: sa.Column[object]) -> list[object]:
    return [
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        *columns,
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    ]


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=True),
        sa.Column("organiser_id", sa.String(length=32), nullable=False),
        sa.Column("organiser_name", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("plan", sa.Text(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=True),
        sa.Column("started_ms", sa.BigInteger(), nullable=True),
        sa.Column("ends_ms", sa.BigInteger(), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_entries",
        *_of_event(
            sa.Column("account_id", sa.String(length=32), nullable=False),
            sa.Column("username", sa.String(length=40), nullable=False),
            sa.Column("registered_ms", sa.BigInteger(), nullable=False),
            sa.Column("withdrawn_ms", sa.BigInteger(), nullable=True),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "account_id"),
    )
    op.create_index("ix_tournament_entries_account_id", "tournament_entries", ["account_id"])
    op.create_table(
        "tournament_boards",
        *_of_event(
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("seed", sa.String(length=64), nullable=False),
            sa.Column("seed_hash", sa.String(length=64), nullable=False),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "board"),
    )
    op.create_table(
        "tournament_tables",
        *_of_event(
            sa.Column("stage", sa.Integer(), nullable=False),
            sa.Column("table_no", sa.Integer(), nullable=False),
            sa.Column("seats", sa.Text(), nullable=False),
            sa.Column("room_id", sa.String(length=32), nullable=True),
            sa.Column("claim_until", sa.BigInteger(), nullable=True),
            sa.Column("created_ms", sa.BigInteger(), nullable=False),
            sa.Column("done_ms", sa.BigInteger(), nullable=True),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "stage", "table_no"),
    )
    op.create_index("ix_tournament_tables_room_id", "tournament_tables", ["room_id"])
    op.create_table(
        "tournament_results",
        *_of_event(
            sa.Column("stage", sa.Integer(), nullable=False),
            sa.Column("table_no", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.String(length=32), nullable=True),
            sa.Column("total", sa.Integer(), nullable=False),
            sa.Column("left", sa.Boolean(), nullable=False),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "stage", "table_no", "seat"),
    )


def downgrade() -> None:
    for table in ("tournament_results", "tournament_tables", "tournament_boards"):
        op.drop_table(table)
    op.drop_index("ix_tournament_entries_account_id", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_index("ix_tournaments_club_id", "tournaments")
    op.drop_table("tournaments")
