"""``krypkasino restore --force`` of an older backup over a database at a newer schema
(issue 45): the next ``krypkasino migrate`` brings the restored database up to head.

Each case makes a database at an earlier revision holding rows (one that an earlier
version wrote, tests/fixtures/upgrade, or one made with the migrations up to the
revision and a few rows written here), backs it up with the real ``krypkasino
backup``, migrates it to head, writes to it, restores the backup over it with
``--force`` and migrates again: the schema and the rows must then be those the
first migration made of the backup's database, nothing left over and nothing
missing.  On PostgreSQL a forced restore used to drop only the backup's own
tables, so the tables of later migrations stayed and the next ``migrate`` failed
with ``relation "accounts" already exists``; on SQLite the restore replaces the
whole file, which these tests prove.  A user's own tables and types in the same
PostgreSQL database stay.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from app.db.migrate import upgrade
from app.db.revisions import apply, head_revision, scripts
from app.db.sync_connection import run_with_connection
from tests.migrations.test_upgrade import REVISIONS, postgres_from_fixture, sqlite_from_fixture
from tests.server.harness import krypkasino, sql

BEFORE_HEAD = str(scripts().get_revision(head_revision()).down_revision)
"""The revision before head, made with the migrations (it has no fixture), for the
test of a user's objects: a backup holding ``app_versions`` and nearly every table,
so that what a later migration could add lands both on a table of the backup and on
one it does not have.  Each case takes seconds of commands, so the other revisions
without a fixture are not here: they differ only in which later tables are dropped."""

ROOM = "r" * 32


def now(url: str) -> Any:
    when = datetime.now(UTC)
    return when.strftime("%Y-%m-%d %H:%M:%S.%f") if url.startswith("sqlite") else when


def add_room(url: str, room_id: str, code: str) -> None:
    """A room, with the columns every revision's ``rooms`` has (0001's)."""
    sql(
        url,
        "INSERT INTO rooms (id, code, players, rules, options, status, seq, created_at, "
        "updated_at) VALUES (:id, :code, 2, '{}', '{}', 'waiting', 0, :t, :t)",
        id=room_id,
        code=code,
        t=now(url),
    )


def database_at(revision: str, url: str, tmp_path: Path) -> str:
    """The database at ``url`` (an empty one) made at ``revision``, holding rows: the
    fixture's database if there is one, else the migrations' with a room in it."""
    if revision in REVISIONS:
        if url.startswith("sqlite"):
            return sqlite_from_fixture(revision, tmp_path)
        postgres_from_fixture(revision, url)
        return url
    apply(url, revision)
    add_room(url, ROOM, "OLDONE")
    sql(
        url,
        "INSERT INTO seats (room_id, seat, name, bot, token_hash) "
        "VALUES (:r, 0, 'Ann', false, 'h0'), (:r, 1, 'Bo', true, NULL)",
        r=ROOM,
    )
    sql(
        url,
        "INSERT INTO events (room_id, seq, kind, data, created_at) "
        "VALUES (:r, 1, 'seat', '{}', :t)",
        r=ROOM,
        t=now(url),
    )
    return url


def _schema_and_rows(conn: Connection) -> dict[str, Any]:
    """Every table's columns, indexes, keys and rows (in a fixed order), and on
    PostgreSQL every other object of the schema: relations, types, functions."""
    found = inspect(conn)
    tables: dict[str, Any] = {}
    for name in found.get_table_names():
        columns = found.get_columns(name)
        # app_versions.first_ms: when this release first opened the database.
        shown = [c["name"] for c in columns if (name, c["name"]) != ("app_versions", "first_ms")]
        quoted = ", ".join(f'"{c}"' for c in shown)
        rows = conn.execute(text(f'SELECT {quoted} FROM "{name}"')).all()
        tables[name] = {
            "columns": [(c["name"], str(c["type"]), c["nullable"]) for c in columns],
            "indexes": sorted(
                (i["name"] or "", tuple(i["column_names"]), bool(i["unique"]))
                for i in found.get_indexes(name)
            ),
            "foreign_keys": sorted(
                (tuple(k["constrained_columns"]), str(k["referred_table"]))
                for k in found.get_foreign_keys(name)
            ),
            "unique": sorted(tuple(u["column_names"]) for u in found.get_unique_constraints(name)),
            "rows": sorted(repr(tuple(row)) for row in rows),
        }
    others: set[tuple[str, str]] = set()
    if conn.dialect.name == "postgresql":
        others = {
            (str(kind), str(name))
            for kind, name in conn.execute(
                text(
                    "SELECT relkind::text, relname::text FROM pg_class "
                    "WHERE relnamespace = 'public'::regnamespace "
                    "UNION ALL SELECT 'type', typname::text FROM pg_type "
                    "WHERE typnamespace = 'public'::regnamespace "
                    "UNION ALL SELECT 'function', proname::text FROM pg_proc "
                    "WHERE pronamespace = 'public'::regnamespace"
                )
            )
        }
    return {"tables": tables, "others": others}


def schema_and_rows(url: str) -> dict[str, Any]:
    return run_with_connection(url, _schema_and_rows)


def revision_of(url: str) -> str:
    rows = sql(url, "SELECT version_num FROM alembic_version")
    assert len(rows) == 1, rows
    return str(rows[0][0])


def backed_up_and_migrated(url: str, copy: Path, revision: str) -> dict[str, Any]:
    """Back ``url`` (at ``revision``) up to ``copy`` with ``krypkasino backup`` and
    migrate it to head; its schema and rows then (what the backup migrates to)."""
    assert revision_of(url) == revision
    done = krypkasino(url, "backup", str(copy))
    assert done.returncode == 0, done.stderr
    upgrade(url, confirmed=True)
    assert revision_of(url) == head_revision()
    return schema_and_rows(url)


def write_to_newer(url: str) -> None:
    """Rows in a table the backup has and in one of a later migration."""
    add_room(url, "n" * 32, "NEWONE")
    sql(url, "INSERT INTO accounts (id, created_ms) VALUES ('acct', 1)")


def restore_and_migrate(url: str, copy: Path, revision: str) -> None:
    done = krypkasino(url, "restore", "--force", str(copy))
    assert done.returncode == 0, done.stderr
    assert revision_of(url) == revision
    done = krypkasino(url, "migrate", "--yes")
    assert done.returncode == 0, done.stderr
    assert revision_of(url) == head_revision()


@pytest.mark.parametrize("revision", REVISIONS)
def test_sqlite_restore_over_a_newer_schema_migrates(revision: str, tmp_path: Path) -> None:
    """SQLite's online backup API replaces the whole file: the later tables go with it."""
    url = database_at(revision, f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db", tmp_path)
    copy = tmp_path / "backup.db"
    newer = backed_up_and_migrated(url, copy, revision)
    write_to_newer(url)
    assert schema_and_rows(url) != newer
    restore_and_migrate(url, copy, revision)
    assert schema_and_rows(url) == newer


POSTGRES_REVISIONS = sorted({REVISIONS[0], REVISIONS[-1]})
"""The oldest fixture (a backup missing the most later tables: the most for the
restore to drop) and the newest (the fewest).  On PostgreSQL each case takes half a
minute of commands on a loaded machine; the revisions between differ only in which
later tables are dropped, and SQLite runs every one."""


@pytest.mark.postgres
@pytest.mark.parametrize("revision", POSTGRES_REVISIONS)
def test_postgres_restore_over_a_newer_schema_migrates(
    revision: str, postgres_url: str, tmp_path: Path
) -> None:
    url = database_at(revision, postgres_url, tmp_path)
    copy = tmp_path / "backup.tar.gz"
    newer = backed_up_and_migrated(url, copy, revision)
    write_to_newer(url)
    assert schema_and_rows(url) != newer
    restore_and_migrate(url, copy, revision)
    assert schema_and_rows(url) == newer


USERS_OBJECTS = [
    "CREATE TYPE mood AS ENUM ('calm', 'keen')",
    "CREATE TABLE notes (id serial PRIMARY KEY, mood mood NOT NULL, body text)",
    "CREATE INDEX notes_body ON notes (body)",
    "CREATE SEQUENCE ticket_no",
    "CREATE FUNCTION notes_touch() RETURNS trigger LANGUAGE plpgsql "
    "AS 'BEGIN NEW.body := coalesce(NEW.body, ''-''); RETURN NEW; END'",
    "CREATE TRIGGER notes_touch BEFORE INSERT ON notes FOR EACH ROW EXECUTE FUNCTION notes_touch()",
    "INSERT INTO notes (mood) VALUES ('keen')",
    "ALTER TABLE accounts ADD COLUMN mood mood",  # an app table uses it too: it stays
]
"""A user's own objects in the application's database, made after the backup."""

USERS_NAMES = {
    ("r", "notes"),
    ("S", "notes_id_seq"),
    ("i", "notes_pkey"),
    ("i", "notes_body"),
    ("S", "ticket_no"),
    ("type", "mood"),
    ("type", "_mood"),
    ("type", "notes"),
    ("type", "_notes"),
    ("function", "notes_touch"),
}

LATER_MIGRATIONS_OBJECTS = [
    "CREATE TYPE account_tier AS ENUM ('free', 'gold')",
    "ALTER TABLE accounts ADD COLUMN tier account_tier",
    "ALTER TABLE accounts ADD COLUMN tiers account_tier[]",
    "CREATE DOMAIN short_label AS varchar(10)",
    "ALTER TABLE daily_deals ADD COLUMN label short_label",
    "CREATE SEQUENCE invite_no",
    "ALTER TABLE accounts ADD COLUMN invite integer DEFAULT nextval('invite_no')",
    "CREATE FUNCTION accounts_touch() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
    "CREATE TRIGGER accounts_touch BEFORE UPDATE ON accounts "
    "FOR EACH ROW EXECUTE FUNCTION accounts_touch()",
]
"""What a later migration could make beside its tables, which DROP TABLE leaves: enum
and domain types of their columns, a sequence of their defaults, a trigger's function
(none of today's migrations makes any; a table's indexes, keys and serial sequences go
with it)."""


@pytest.mark.postgres
def test_postgres_restore_keeps_the_users_own_objects(postgres_url: str, tmp_path: Path) -> None:
    """A forced restore drops the application's tables and what only they used, and
    nothing else: a user's table of the backup is loaded as the backup has it, and a
    user's table, type, sequence and function made since stay as they are."""
    url = database_at(BEFORE_HEAD, postgres_url, tmp_path)
    sql(url, "CREATE TABLE ledger (id serial PRIMARY KEY, note text NOT NULL)")
    sql(url, "INSERT INTO ledger (note) VALUES ('one'), ('two')")
    copy = tmp_path / "backup.tar.gz"
    newer = backed_up_and_migrated(url, copy, BEFORE_HEAD)
    write_to_newer(url)
    sql(url, "INSERT INTO ledger (note) VALUES ('three')")
    for statement in [*USERS_OBJECTS, *LATER_MIGRATIONS_OBJECTS]:
        sql(url, statement)

    restore_and_migrate(url, copy, BEFORE_HEAD)
    after = schema_and_rows(url)
    assert after["others"] - newer["others"] == USERS_NAMES
    assert newer["others"] - after["others"] == set()
    assert {t: v for t, v in after["tables"].items() if t != "notes"} == newer["tables"]
    assert sql(url, "SELECT id, note FROM ledger ORDER BY id") == [(1, "one"), (2, "two")]
    assert sql(url, "SELECT id, mood::text, body FROM notes") == [(1, "keen", "-")]
    sql(url, "INSERT INTO notes (mood) VALUES ('calm')")  # its sequence and trigger work
    assert sql(url, "SELECT id, body FROM notes WHERE mood = 'calm'") == [(2, "-")]
    assert sql(url, "SELECT nextval('ticket_no')") == [(1,)]
