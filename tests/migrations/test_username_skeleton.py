"""Migration 0019 on a database that holds accounts: every live account gets its
username's skeleton (``app.names.name_key``), the oldest of look-alikes made before it
("b0b" and "bob") alone, the others and deleted accounts NULL; no row is lost (on
SQLite the table may be rebuilt, with the sessions that refer to it)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from app.db.revisions import apply
from tests.server.harness import sql

ACCOUNTS = [
    # id, username, created_ms, deleted_ms
    ("acct-bob", "bob", 200, None),
    ("acct-b0b", "b0b", 100, None),  # older than "bob": the skeleton "bob" is its
    ("acct-alex", "Alex", 50, None),  # as old as "a1ex", whose id is smaller and wins
    ("acct-a1ex", "a1ex", 50, None),
    ("acct-gone", None, 10, 20),  # deleted
    ("acct-zed", "Zed_0", 300, None),
]
SKELETONS = {
    "acct-a1ex": "alex",
    "acct-alex": None,
    "acct-b0b": "bob",
    "acct-bob": None,
    "acct-gone": None,
    "acct-zed": "zed_o",
}


def test_upgrade_gives_each_account_its_skeleton_the_oldest_first(database_url: str) -> None:
    apply(database_url, "0018")
    for account_id, username, created, deleted in ACCOUNTS:
        sql(
            database_url,
            "INSERT INTO accounts (id, username, username_key, password_hash, created_ms,"
            " deleted_ms) VALUES (:id, :name, :key, NULL, :created, :deleted)",
            id=account_id,
            name=username,
            key=None if username is None else username.lower(),
            created=created,
            deleted=deleted,
        )
    sql(
        database_url,
        "INSERT INTO account_sessions (token_hash, account_id, created_ms, expires_ms)"
        " VALUES ('t', 'acct-bob', 1, 9999999999999)",
    )

    apply(database_url, "head")

    rows = sql(database_url, "SELECT id, username_skeleton FROM accounts ORDER BY id")
    assert dict(rows) == SKELETONS  # three NULLs: NULL is not unique
    assert sql(database_url, "SELECT account_id FROM account_sessions") == [("acct-bob",)]
    with pytest.raises(IntegrityError):
        sql(
            database_url,
            "INSERT INTO accounts (id, username, username_key, username_skeleton, created_ms)"
            " VALUES ('acct-new', 'B0B_', 'b0b_', 'bob', 400)",
        )
