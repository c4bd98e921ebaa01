"""Optional accounts (issue 34): accounts, their sessions, the player keys and external
identities they took over, failed sign-ins, and the account holding a seat.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("username", sa.String(length=24), nullable=True),
        sa.Column("username_key", sa.String(length=24), nullable=True),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("deleted_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username_key"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "account_keys",
        sa.Column("player_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("linked_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_hash"),
    )
    op.create_index("ix_account_keys_account_id", "account_keys", ["account_id"])
    op.create_table(
        "external_identities",
        sa.Column("issuer", sa.String(length=255), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("issuer", "subject"),
    )
    op.create_index("ix_external_identities_account_id", "external_identities", ["account_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=100), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_sign_in_failures_scope", "sign_in_failures", ["scope"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(length=32), nullable=True))
        batch.create_index("ix_seats_account_id", ["account_id"])
        batch.create_foreign_key(
            "fk_seats_account_id", "accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_account_id", type_="foreignkey")
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("account_id")
    op.drop_index("ix_sign_in_failures_scope", table_name="sign_in_failures")
    op.drop_table("sign_in_failures")
    op.drop_index("ix_external_identities_account_id", table_name="external_identities")
    op.drop_table("external_identities")
    op.drop_index("ix_account_keys_account_id", table_name="account_keys")
    op.drop_table("account_keys")
    op.drop_index("ix_account_sessions_account_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
