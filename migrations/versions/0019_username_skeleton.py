"""The usernames' skeletons (issue 46): ``accounts.username_skeleton`` holds
``app.names.name_key(username)`` ("b0b" is "bob"), unique, so that a name is compared
with every account's skeleton both ways: "bob" is refused beside "b0b" as "b0b" is
beside "bob", at registration and as a seat's or a chat line's name.

Every existing account gets its skeleton here, computed in Python.  Where accounts
made before this share a skeleton ("b0b" and "bob"), the oldest (by ``created_ms``,
then by id) gets it and the others keep NULL: NULL is not unique-constrained, so
they stay as they are (still unique by ``username_key``, and still found by it).
Deleted accounts (their username and key already NULL) keep NULL too, as a deletion
does from now on.  No row is added or removed.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.names import name_key

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

ACCOUNTS = sa.table(
    "accounts",
    sa.column("id", sa.String()),
    sa.column("username", sa.String()),
    sa.column("created_ms", sa.BigInteger()),
    sa.column("deleted_ms", sa.BigInteger()),
    sa.column("username_skeleton", sa.String()),
)


def _backfill() -> None:
    """Each live account's skeleton, the oldest first: a skeleton already given stays
    with the account that got it."""
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(ACCOUNTS.c.id, ACCOUNTS.c.username)
        .where(ACCOUNTS.c.username.is_not(None), ACCOUNTS.c.deleted_ms.is_(None))
        .order_by(ACCOUNTS.c.created_ms, ACCOUNTS.c.id)
    ).all()
    given: dict[str, str] = {}
    for account_id, username in rows:
        given.setdefault(name_key(username), account_id)
    if given:
        conn.execute(
            sa.update(ACCOUNTS)
            .where(ACCOUNTS.c.id == sa.bindparam("account_id"))
            .values(username_skeleton=sa.bindparam("skeleton")),
            [{"account_id": a, "skeleton": key} for key, a in given.items()],
        )


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(length=64), nullable=True))
    _backfill()
    with op.batch_alter_table("accounts") as batch:
        batch.create_index("ux_accounts_username_skeleton", ["username_skeleton"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ux_accounts_username_skeleton")
        batch.drop_column("username_skeleton")
