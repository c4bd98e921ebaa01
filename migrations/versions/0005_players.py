"""Player keys on seats (their hash) and one-time seat transfers between devices.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-10 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_hash", sa.String(length=64), nullable=True))
        batch.create_index("ix_seats_player_hash", ["player_hash"])
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("sealed", sa.String(length=128), nullable=True),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("used_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    with op.batch_alter_table("transfers") as batch:
        batch.create_index("ix_transfers_room_id", ["room_id"])


def downgrade() -> None:
    with op.batch_alter_table("transfers") as batch:
        batch.drop_index("ix_transfers_room_id")
    op.drop_table("transfers")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_hash")
        batch.drop_column("player_hash")
