"""Personal access tokens and bot accounts (issue 51): ``access_tokens`` keeps each
token's hash (never the token), its scopes and its last use; ``accounts.bot_since_ms``
is when an account became a bot account (NULL: a person's), which it stays.

Every account and every other row stays as it is: a new table, and a nullable column
added with a plain ADD COLUMN on both databases (no rebuild of ``accounts``).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("bot_since_ms", sa.BigInteger(), nullable=True))
    op.create_table(
        "access_tokens",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.String(length=100), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("last_used_ms", sa.BigInteger(), nullable=True),
        sa.Column("revoked_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("access_tokens") as batch:
        batch.create_index("ix_access_tokens_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.drop_index("ix_access_tokens_account_id")
    op.drop_table("access_tokens")
    # migrations run with SQLite's foreign keys off (migrations/env.py): a rebuild of
    # ``accounts`` here, where SQLite needs one, deletes no session or rating
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("bot_since_ms")
