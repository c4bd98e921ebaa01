"""Notices (issue 32): which events a player wants told, deadline warnings told once,
email addresses and the daily digests sent.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notice_settings",
        sa.Column("owner", sa.String(length=80), nullable=False),
        sa.Column("turn", sa.Boolean(), nullable=False),
        sa.Column("deadline", sa.Boolean(), nullable=False),
        sa.Column("digest", sa.Boolean(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("owner"),
    )
    op.create_table(
        "deadline_notices",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("hours", sa.Integer(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "seq", "seat", "hours"),
    )
    with op.batch_alter_table("deadline_notices") as batch:
        batch.create_index("ix_deadline_notices_at_ms", ["at_ms"])
    op.create_table(
        "email_addresses",
        sa.Column("owner", sa.String(length=80), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("confirm_hash", sa.String(length=64), nullable=True),
        sa.Column("unsubscribe_token", sa.String(length=64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("confirmed_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("owner"),
        sa.UniqueConstraint("confirm_hash"),
        sa.UniqueConstraint("unsubscribe_token"),
    )
    with op.batch_alter_table("email_addresses") as batch:
        batch.create_index("ix_email_addresses_address", ["address"])
    op.create_table(
        "email_digests",
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("sent_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("address", "day"),
    )
    with op.batch_alter_table("email_digests") as batch:
        batch.create_index("ix_email_digests_sent_ms", ["sent_ms"])


def downgrade() -> None:
    with op.batch_alter_table("email_digests") as batch:
        batch.drop_index("ix_email_digests_sent_ms")
    op.drop_table("email_digests")
    with op.batch_alter_table("email_addresses") as batch:
        batch.drop_index("ix_email_addresses_address")
    op.drop_table("email_addresses")
    with op.batch_alter_table("deadline_notices") as batch:
        batch.drop_index("ix_deadline_notices_at_ms")
    op.drop_table("deadline_notices")
    op.drop_table("notice_settings")
