"""The releases of the server that opened the database (app_versions).

A server refuses to start on a database that a newer release opened
(app/db/versions.py): the newer release's schema or data may mean things the
older one does not know.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "app_versions",
        sa.Column("version", sa.String(length=32), nullable=False),
        sa.Column("revision", sa.String(length=32), nullable=False),
        sa.Column("first_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("version"),
    )


def downgrade() -> None:
    op.drop_table("app_versions")
