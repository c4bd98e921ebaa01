"""An outbox event's due time (issue 48): ``outbox_events.due_ms``, before which no
dispatcher claims the event.  A turn notice (``turn_changed``) is stored with the move
that gave the turn and falls due only after the notice delay; every other event is
due when made, as every event stored before this migration is (0).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN on both databases: never a rebuild of the table, which on
    # SQLite would take ``outbox_handled``'s rows along (ON DELETE CASCADE; issue 35)
    op.add_column(
        "outbox_events", sa.Column("due_ms", sa.BigInteger(), server_default="0", nullable=False)
    )


def downgrade() -> None:
    with op.batch_alter_table("outbox_events") as batch:
        batch.drop_column("due_ms")
