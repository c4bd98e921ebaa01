"""The bot event stream and challenges between bots (issue 51): ``bot_streams`` (each
open stream, renewed while it is open: who is online, and how many streams a bot
holds, seen by every process) and ``bot_challenges`` (a challenge until it is
answered or expires).

New tables only: every other row stays as it is.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-09 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_streams",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("opened_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bot_streams") as batch:
        batch.create_index("ix_bot_streams_account_id", ["account_id"])
    op.create_table(
        "bot_challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("from_account", sa.String(length=32), nullable=False),
        sa.Column("to_account", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("bots", sa.Integer(), nullable=False),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["from_account"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["to_account"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bot_challenges") as batch:
        batch.create_index("ix_bot_challenges_to", ["to_account", "state"])
        batch.create_index("ix_bot_challenges_from", ["from_account", "state"])


def downgrade() -> None:
    with op.batch_alter_table("bot_challenges") as batch:
        batch.drop_index("ix_bot_challenges_from")
        batch.drop_index("ix_bot_challenges_to")
    op.drop_table("bot_challenges")
    with op.batch_alter_table("bot_streams") as batch:
        batch.drop_index("ix_bot_streams_account_id")
    op.drop_table("bot_streams")
