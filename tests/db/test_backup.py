"""``krypkasino backup`` and ``restore`` on both databases: what goes in comes back out.

Each test runs the real commands on a database an earlier version made
(tests/fixtures/upgrade), migrated to today's schema first.  The test of a
backup taken while games are played is tests/server/test_backup_live.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.db.backup import backup_database
from tests.migrations.test_upgrade import (
    manifest,
    postgres_from_fixture,
    row_counts,
    sqlite_from_fixture,
)
from tests.server.harness import krypkasino, sql

FIXTURE = "0006"
TABLES = sorted(t for t in manifest(FIXTURE, "sqlite")["counts"] if t != "alembic_version")


def contents(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables that hold games, in a fixed order."""
    keys = {
        "events": "room_id, seq",
        "deals": "room_id, match_no, deal_no",
        "seats": "room_id, seat",
        "matches": "room_id, match_no",
        "rooms": "id",
        "chat_messages": "id",
    }
    return {t: sql(url, f"SELECT * FROM {t} ORDER BY {k}") for t, k in keys.items()}


def migrated(url: str) -> str:
    done = krypkasino(url, "migrate", "--yes")
    assert done.returncode == 0, done.stderr
    return url


def test_sqlite_backup_restores_every_row(tmp_path: Path) -> None:
    url = migrated(sqlite_from_fixture(FIXTURE, tmp_path))
    copy = tmp_path / "backup.db"
    done = krypkasino(url, "backup", str(copy))
    assert done.returncode == 0, done.stderr
    assert str(copy) in done.stdout
    target = f"sqlite+aiosqlite:///{tmp_path}/restored/krypkasino.db"
    done = krypkasino(target, "restore", str(copy))
    assert done.returncode == 0, done.stderr
    assert contents(target) == contents(url)
    assert row_counts(target, TABLES) == row_counts(url, TABLES)


def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    url = migrated(sqlite_from_fixture(FIXTURE, tmp_path))
    copy = tmp_path / "backup.db"
    copy.write_text("precious")
    done = krypkasino(url, "backup", str(copy))
    assert done.returncode == 1
    assert "already exists" in done.stderr
    assert copy.read_text() == "precious"


def test_restore_over_rooms_needs_force(tmp_path: Path) -> None:
    url = migrated(sqlite_from_fixture(FIXTURE, tmp_path))
    copy = tmp_path / "backup.db"
    assert krypkasino(url, "backup", str(copy)).returncode == 0
    sql(url, "DELETE FROM rooms WHERE id IN (SELECT id FROM rooms LIMIT 1)")
    left = row_counts(url, TABLES)
    done = krypkasino(url, "restore", str(copy))
    assert done.returncode == 1
    assert "--force" in done.stderr
    assert row_counts(url, TABLES) == left, "nothing was restored"
    done = krypkasino(url, "restore", "--force", str(copy))
    assert done.returncode == 0, done.stderr
    assert row_counts(url, TABLES) == {t: manifest(FIXTURE, "sqlite")["counts"][t] for t in TABLES}


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db"
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    done = krypkasino(url, "restore", str(junk))
    assert done.returncode == 1
    assert "not a SQLite database" in done.stderr


def test_an_older_schema_restores_and_is_migrated_by_the_next_start(tmp_path: Path) -> None:
    """A copy taken before a migration (schema 0005 here) goes back in as it was, and
    ``migrate`` brings it up to date again, with its own backup first."""
    old = sqlite_from_fixture("0005", tmp_path)
    target = f"sqlite+aiosqlite:///{tmp_path}/restored.db"
    done = krypkasino(target, "restore", old.split("///", 1)[1])
    assert done.returncode == 0, done.stderr
    assert sql(target, "SELECT version_num FROM alembic_version") == [("0005",)]
    assert krypkasino(target, "migrate").returncode == 0
    assert row_counts(target, ["events"]) == {
        "events": manifest("0005", "sqlite")["counts"]["events"]
    }


def test_postgres_backup_restores_every_row(
    postgres_url: str, second_postgres_url: str, tmp_path: Path
) -> None:
    postgres_from_fixture(FIXTURE, postgres_url)
    migrated(postgres_url)
    copy = tmp_path / "backup.tar.gz"
    done = krypkasino(postgres_url, "backup", str(copy))
    assert done.returncode == 0, done.stderr
    done = krypkasino(second_postgres_url, "restore", str(copy))
    assert done.returncode == 0, done.stderr
    assert contents(second_postgres_url) == contents(postgres_url)
    # The serial column's sequence moved past the restored rows: a new line gets a new id.
    room = sql(second_postgres_url, "SELECT id FROM rooms LIMIT 1")[0][0]
    sql(
        second_postgres_url,
        "INSERT INTO chat_messages (room_id, text, hidden, at_ms) VALUES (:r, 'hej', false, 0)",
        r=room,
    )
    ids = [row[0] for row in sql(second_postgres_url, "SELECT id FROM chat_messages")]
    assert len(set(ids)) == len(ids) == manifest(FIXTURE, "postgres")["counts"]["chat_messages"] + 1

    # Over a database that holds rooms: only with --force.
    done = krypkasino(second_postgres_url, "restore", str(copy))
    assert done.returncode == 1 and "--force" in done.stderr
    done = krypkasino(second_postgres_url, "restore", "--force", str(copy))
    assert done.returncode == 0, done.stderr
    assert contents(second_postgres_url) == contents(postgres_url)


def test_a_sqlite_backup_is_not_restored_into_postgres(postgres_url: str, tmp_path: Path) -> None:
    old = sqlite_from_fixture(FIXTURE, tmp_path)
    done = krypkasino(postgres_url, "restore", old.split("///", 1)[1])
    assert done.returncode == 1
    assert "is a SQLite database" in done.stderr


def test_a_sqlite_backup_holds_rows_still_in_the_write_ahead_log(tmp_path: Path) -> None:
    """A running server's last commits sit in the ``-wal`` file until a checkpoint: a
    backup made by copying the database file would lose them (issue 48's planted bug
    was caught only by the slow live-backup test).  Here a connection keeps rows in the
    log, never checkpointed, while the backup runs."""
    db = tmp_path / "live.db"
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, body TEXT)")
        writer.executemany("INSERT INTO events (body) VALUES (?)", [("x",)] * 50)
        assert (tmp_path / "live.db-wal").stat().st_size > 0, "the rows are in the log"
        report = backup_database(f"sqlite+aiosqlite:///{db}", tmp_path / "copy.db")
    finally:
        writer.close()
    assert report.rows == {"events": 50}
    copy = sqlite3.connect(tmp_path / "copy.db")
    try:
        assert copy.execute("SELECT count(*) FROM events").fetchone()[0] == 50
    finally:
        copy.close()
