"""Club-only rooms (issue 49): ``rooms.club_id``, the club whose members alone take the
room's seats (null: anyone's room), indexed for the club's page, which lists its open
rooms.  The id is also in the room's stored options; no foreign key, as a room keeps
its club's id when the club is closed.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("club_id", sa.String(length=32), nullable=True))
        batch.create_index("ix_rooms_club_id", ["club_id"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_club_id")
        batch.drop_column("club_id")
