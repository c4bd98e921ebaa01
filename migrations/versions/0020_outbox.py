"""The outbox (issue 48): domain events stored with the commit that made them, and
which subscribers have handled each (app/core/outbox.py, app/db/outbox.py).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
"""A 64-bit id on PostgreSQL; SQLite's INTEGER PRIMARY KEY (its row id) is 64-bit."""


def upgrade() -> None:
    op.create_table(
        "outbox_events",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("done", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("claim_owner", sa.String(length=64), nullable=True),
        sa.Column("claim_until", sa.BigInteger(), nullable=True),
        sa.Column("tries", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("outbox_events") as batch:
        batch.create_index("ix_outbox_events_room_id", ["room_id"])
        batch.create_index("ix_outbox_events_due", ["done", "claim_until"])
    op.create_table(
        "outbox_handled",
        sa.Column("event_id", ID, nullable=False),
        sa.Column("subscriber", sa.String(length=40), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["outbox_events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "subscriber"),
    )


def downgrade() -> None:
    op.drop_table("outbox_handled")
    with op.batch_alter_table("outbox_events") as batch:
        batch.drop_index("ix_outbox_events_due")
        batch.drop_index("ix_outbox_events_room_id")
    op.drop_table("outbox_events")
