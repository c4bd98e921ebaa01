"""Clubs (issue 49): ``clubs`` (each club, its name's skeleton unique, its invite
link's hash), ``club_members`` (who, in which role), ``club_requests`` (pending join
requests) and ``club_removals`` (members removed, whom the invite link keeps out).

New tables only: every other row stays as it is.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-10 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def _pair(table: str, when: str) -> None:
    """A table of (club, account) with a time, as members, requests and removals are."""
    op.create_table(
        table,
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        *(
            [sa.Column("role", sa.String(length=16), nullable=False)]
            if table == "club_members"
            else []
        ),
        sa.Column(when, sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "account_id"),
    )


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_skeleton", sa.String(length=160), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("owner_id", sa.String(length=32), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("closed_ms", sa.BigInteger(), nullable=True),
        sa.Column("members", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("invite_expires_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("clubs") as batch:
        batch.create_index("ux_clubs_name_skeleton", ["name_skeleton"], unique=True)
        batch.create_index("ux_clubs_invite_hash", ["invite_hash"], unique=True)
        batch.create_index("ix_clubs_owner_id", ["owner_id"])
    _pair("club_members", "joined_ms")
    _pair("club_requests", "made_ms")
    _pair("club_removals", "removed_ms")
    for table in ("club_members", "club_requests"):
        with op.batch_alter_table(table) as batch:
            batch.create_index(f"ix_{table}_account_id", ["account_id"])


def downgrade() -> None:
    for table in ("club_requests", "club_members"):
        with op.batch_alter_table(table) as batch:
            batch.drop_index(f"ix_{table}_account_id")
    op.drop_table("club_removals")
    op.drop_table("club_requests")
    op.drop_table("club_members")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_index("ix_clubs_owner_id")
        batch.drop_index("ux_clubs_invite_hash")
        batch.drop_index("ux_clubs_name_skeleton")
    op.drop_table("clubs")
