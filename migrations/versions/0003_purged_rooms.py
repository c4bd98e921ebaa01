"""Tombstones of purged rooms (purged_rooms): when and why a finished room was removed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 18:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "purged_rooms",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("purged_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("purged_rooms", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_purged_rooms_code"), ["code"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("purged_rooms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_purged_rooms_code"))

    op.drop_table("purged_rooms")
