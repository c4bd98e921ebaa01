"""Who created a room (a hash of the address), to cap live rooms per address.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("created_by", sa.String(length=32), nullable=True))
        batch.create_index("ix_rooms_created_by", ["created_by"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_created_by")
        batch.drop_column("created_by")
