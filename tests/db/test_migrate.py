"""``krypkasino migrate`` and ``serve``: a backup first, refusals that change nothing.

Every test runs the real command on a real database (a SQLite file, a fresh
PostgreSQL database) made by an earlier version (tests/fixtures/upgrade).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app import __version__
from app.db.revisions import head_revision
from tests.migrations.test_upgrade import (
    manifest,
    postgres_from_fixture,
    row_counts,
    sqlite_from_fixture,
)
from tests.server.harness import krypkasino, sql

OLD = "0005"
"""A schema with several migrations after it, among them a rebuild of ``rooms``."""


def revision_of(url: str) -> str:
    return str(sql(url, "SELECT version_num FROM alembic_version")[0][0])


def test_a_new_sqlite_database_is_migrated_without_a_backup(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db"
    done = krypkasino(url, "migrate")
    assert done.returncode == 0, done.stderr
    assert revision_of(url) == head_revision()
    assert sorted(p.name for p in tmp_path.iterdir() if "schema-" in p.name) == []
    assert sql(url, "SELECT version, revision FROM app_versions") == [
        (__version__, head_revision())
    ]


def test_a_database_at_head_is_not_backed_up_again(tmp_path: Path) -> None:
    url = sqlite_from_fixture(OLD, tmp_path)
    assert krypkasino(url, "migrate").returncode == 0
    again = krypkasino(url, "migrate")
    assert again.returncode == 0, again.stderr
    assert len(list(tmp_path.glob("krypkasino.schema-*"))) == 1
    assert "backup" not in again.stdout


def test_backup_dir_holds_the_copy_before_a_sqlite_migration(tmp_path: Path) -> None:
    url = sqlite_from_fixture(OLD, tmp_path)
    folder = tmp_path / "backups"
    folder.mkdir()
    done = krypkasino(url, "migrate", env={"BACKUP_DIR": str(folder)})
    assert done.returncode == 0, done.stderr
    (copy,) = folder.glob(f"krypkasino.schema-{OLD}.*Z.db")
    assert revision_of(f"sqlite+aiosqlite:///{copy}") == OLD


def test_no_migration_when_the_backup_cannot_be_made(tmp_path: Path) -> None:
    url = sqlite_from_fixture(OLD, tmp_path)
    done = krypkasino(url, "migrate", env={"BACKUP_DIR": str(tmp_path / "no-such-folder")})
    assert done.returncode == 2
    assert "not migrated" in done.stderr and "backup" in done.stderr
    assert revision_of(url) == OLD, "the database was left as it was"
    assert row_counts(url, ["events"]) == {"events": manifest(OLD, "sqlite")["counts"]["events"]}


def test_a_database_a_newer_release_opened_is_refused_by_migrate_and_serve(
    tmp_path: Path,
) -> None:
    url = sqlite_from_fixture(OLD, tmp_path)
    assert krypkasino(url, "migrate").returncode == 0
    sql(url, "INSERT INTO app_versions VALUES ('99.0.0', :rev, 0)", rev=head_revision())
    for command in (["migrate"], ["serve", "--port", "0"]):
        done = krypkasino(url, *command)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "99.0.0" in done.stderr and "newer than this release" in done.stderr
    assert len(list(tmp_path.glob("krypkasino.schema-*"))) == 1, "no second backup"


def test_a_schema_this_release_does_not_know_is_refused(tmp_path: Path) -> None:
    url = sqlite_from_fixture(OLD, tmp_path)
    sql(url, "UPDATE alembic_version SET version_num = '9999'")
    done = krypkasino(url, "migrate")
    assert done.returncode == 2
    assert "schema revision 9999" in done.stderr
    assert revision_of(url) == "9999"
    assert list(tmp_path.glob("krypkasino.schema-*")) == []


def test_a_migration_that_breaks_a_foreign_key_changes_nothing(tmp_path: Path) -> None:
    """The whole upgrade is one transaction, DDL included, and it is checked with
    ``PRAGMA foreign_key_check`` before it commits: a seat of no room (left by a
    damaged database) stops it, and not one of its tables or columns stays."""
    url = sqlite_from_fixture(OLD, tmp_path)
    db = url.split("///", 1)[1]
    con = sqlite3.connect(db)  # foreign keys are off on a plain connection
    con.execute("INSERT INTO seats (room_id, seat, bot) VALUES ('0' , 0, 0)")
    con.commit()
    tables_before = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master"))
    con.close()
    done = krypkasino(url, "migrate")
    assert done.returncode != 0
    assert "referring to missing rows" in done.stderr
    assert revision_of(url) == OLD
    con = sqlite3.connect(db)
    assert sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master")) == tables_before
    columns = [r[1] for r in con.execute("PRAGMA table_info(rooms)")]
    con.close()
    assert "public" not in columns, "the rebuilt rooms table of 0006 was rolled back"


def test_postgres_migration_waits_for_a_backup_or_a_yes(postgres_url: str, tmp_path: Path) -> None:
    postgres_from_fixture(OLD, postgres_url)
    done = krypkasino(postgres_url, "migrate")
    assert done.returncode == 2
    assert "pg_dump --format=custom" in done.stderr and "--yes" in done.stderr
    assert "krypkasino backup" in done.stderr
    assert revision_of(postgres_url) == OLD

    folder = tmp_path / "backups"
    folder.mkdir()
    done = krypkasino(postgres_url, "migrate", env={"BACKUP_DIR": str(folder)})
    assert done.returncode == 0, done.stderr
    (copy,) = folder.glob(f"*.schema-{OLD}.*Z.tar.gz")
    assert revision_of(postgres_url) == head_revision()
    assert copy.name in done.stdout


def test_postgres_migration_goes_ahead_with_yes(postgres_url: str) -> None:
    postgres_from_fixture(OLD, postgres_url)
    done = krypkasino(postgres_url, "migrate", "--yes")
    assert done.returncode == 0, done.stderr
    assert revision_of(postgres_url) == head_revision()


def test_a_new_postgres_database_needs_no_yes(postgres_url: str) -> None:
    done = krypkasino(postgres_url, "migrate")
    assert done.returncode == 0, done.stderr
    assert revision_of(postgres_url) == head_revision()


def test_two_backups_of_one_second_are_both_kept(tmp_path: Path) -> None:
    """Backups are named to the second and never overwrite a file: a second backup in
    the same second (a restore and a migration again, by a script) gets ``-2``
    instead of refusing the migration."""
    from datetime import UTC, datetime

    from app.db.migrate import _backup_before, read_state

    url = sqlite_from_fixture(OLD, tmp_path)
    state = read_state(url)
    now = datetime(2026, 12, 6, 13, 40, 5, tzinfo=UTC)
    first = _backup_before(url, state, None, now)
    second = _backup_before(url, state, None, now)
    assert first.name == f"krypkasino.schema-{OLD}.20261206T134005Z.db"
    assert second.name == f"krypkasino.schema-{OLD}.20261206T134005Z-2.db"
    for copy in (first, second):
        assert revision_of(f"sqlite+aiosqlite:///{copy}") == OLD
