"""Sign-ins through an OpenID Connect provider under way (issue 34, oidc_pending).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "oidc_pending",
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        sa.Column("nonce", sa.String(length=128), nullable=False),
        sa.Column("code_verifier", sa.String(length=128), nullable=False),
        sa.Column("redirect_uri", sa.String(length=2048), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("state_hash"),
    )
    op.create_index("ix_oidc_pending_expires_ms", "oidc_pending", ["expires_ms"])


def downgrade() -> None:
    op.drop_index("ix_oidc_pending_expires_ms", table_name="oidc_pending")
    op.drop_table("oidc_pending")
