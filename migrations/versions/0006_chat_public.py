"""Room chat (issue 12) and public rooms listed in the lobby.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_index("ix_rooms_public", ["public"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("text", sa.String(length=300), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chat_messages") as batch:
        batch.create_index("ix_chat_messages_room_id", ["room_id"])


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_index("ix_chat_messages_room_id")
    op.drop_table("chat_messages")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_public")
        batch.drop_column("public")
