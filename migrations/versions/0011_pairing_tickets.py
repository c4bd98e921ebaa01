"""The quick-pairing queue (pairing_tickets): people waiting for a game, in the
database so that every server process sees and seats them (app/pairing/).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pairing_tickets",
        sa.Column("ticket", sa.String(length=32), nullable=False),
        sa.Column("identity", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("pace", sa.String(length=16), nullable=False),
        sa.Column("bots_after", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.Column("player_hash", sa.String(length=64), nullable=True),
        sa.Column("group_id", sa.String(length=32), nullable=True),
        sa.Column("claim_until", sa.BigInteger(), nullable=True),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=True),
        sa.Column("matched_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("ticket"),
        sa.UniqueConstraint("identity"),
    )
    op.create_index(
        "ix_pairing_queue",
        "pairing_tickets",
        ["status", "players", "pace", "created_ms"],
    )
    op.create_index("ix_pairing_tickets_group_id", "pairing_tickets", ["group_id"])


def downgrade() -> None:
    op.drop_index("ix_pairing_tickets_group_id", table_name="pairing_tickets")
    op.drop_index("ix_pairing_queue", table_name="pairing_tickets")
    op.drop_table("pairing_tickets")
