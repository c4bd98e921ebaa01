"""Web Push (issue 32): the server's own keys, browsers' subscriptions, turns told.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("endpoint", sa.String(length=2000), nullable=False),
        sa.Column("player_hash", sa.String(length=64), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=60), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("endpoint"),
    )
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.create_index("ix_push_subscriptions_player_hash", ["player_hash"])
    op.create_table(
        "push_notices",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "seq", "seat"),
    )
    with op.batch_alter_table("push_notices") as batch:
        batch.create_index("ix_push_notices_at_ms", ["at_ms"])


def downgrade() -> None:
    with op.batch_alter_table("push_notices") as batch:
        batch.drop_index("ix_push_notices_at_ms")
    op.drop_table("push_notices")
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_index("ix_push_subscriptions_player_hash")
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
