"""Correspondence rooms (issue 32): the deadlines a room waits on, one row per kind.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 18:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_deadlines",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("due_ms", sa.BigInteger(), nullable=False),
        sa.Column("by_bot", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("claim_owner", sa.String(length=64), nullable=True),
        sa.Column("claim_until", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "kind"),
    )
    with op.batch_alter_table("room_deadlines") as batch:
        batch.create_index("ix_room_deadlines_due_ms", ["due_ms"])


def downgrade() -> None:
    with op.batch_alter_table("room_deadlines") as batch:
        batch.drop_index("ix_room_deadlines_due_ms")
    op.drop_table("room_deadlines")
