"""Room leases for timers, event times, and client ids long enough for every seat.

- ``rooms.lease_owner`` / ``rooms.lease_until``: which server process runs a
  room's timers (bot turns, the clock, grace take-overs) and until when.
- ``events.at_ms``: when each event was written, so that a turn clock's
  deadline is the same in every process and after a restart.
- ``events.client_id`` grows from 64 to 80 characters: a client's id may be 64
  characters and is stored behind its seat (``3:...``), which PostgreSQL
  refused.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("at_ms", sa.BigInteger(), nullable=True))
        batch.alter_column(
            "client_id",
            existing_type=sa.String(length=64),
            type_=sa.String(length=80),
            existing_nullable=True,
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.alter_column(
            "client_id",
            existing_type=sa.String(length=80),
            type_=sa.String(length=64),
            existing_nullable=True,
        )
        batch.drop_column("at_ms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("lease_owner")
