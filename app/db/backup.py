"""``krypkasino backup FILE`` and ``krypkasino restore FILE``, for both databases.

SQLite: the backup is a SQLite file, written by ``VACUUM INTO`` from one read
transaction, so it is consistent while the server goes on writing (WAL lets
readers and the writer run together); it is written under a temporary name
and renamed when complete, so a failed backup leaves no file that looks
whole.  A restore checks the file (``PRAGMA quick_check``, a schema revision
this release knows) and copies it into the database with SQLite's online
backup API, which takes the database's locks as any writer would.

PostgreSQL: see app/db/pg_archive.py (the server's own COPY, in one
repeatable-read snapshot; no client programs needed).

A restore replaces a database that holds rooms only with ``force``; the server
should be stopped while it runs (a running server keeps its rooms in memory
and would write over what was restored).  The restored database may be at an
older schema: the next ``migrate`` or ``serve`` brings it up to date, with the
usual backup first.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .backup_types import BackupFailed, BackupReport
from .pg_archive import backup_postgres, restore_postgres
from .revisions import known_revisions
from .sync_connection import backend, sqlite_path

SQLITE_HEADER = b"SQLite format 3\x00"


def backup_database(url: str, target: Path) -> BackupReport:
    """Write a consistent copy of the database at ``url`` to ``target`` (a new file)."""
    target = Path(target)
    if target.exists():
        raise BackupFailed(f"{target} already exists; choose a new file name")
    if not target.parent.is_dir():
        raise BackupFailed(f"the folder {target.parent} does not exist")
    db_file = sqlite_path(url)
    if db_file is not None:
        return _backup_sqlite(Path(db_file), target)
    if backend(url) == "postgresql":
        return backup_postgres(url, target)
    raise BackupFailed("backup needs a SQLite file or a PostgreSQL database")


def restore_database(url: str, source: Path, *, force: bool = False) -> BackupReport:
    """Replace the database at ``url`` with the backup in ``source``."""
    source = Path(source)
    if not source.is_file():
        raise BackupFailed(f"no backup file at {source}")
    with source.open("rb") as f:
        is_sqlite = f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    db_file = sqlite_path(url)
    if db_file is not None:
        if not is_sqlite:
            raise BackupFailed(
                f"{source} is not a SQLite database; DATABASE_URL is a SQLite database"
            )
        return _restore_sqlite(source, Path(db_file), force)
    if backend(url) == "postgresql":
        if is_sqlite:
            raise BackupFailed(
                f"{source} is a SQLite database; DATABASE_URL is a PostgreSQL database"
            )
        return restore_postgres(url, source, force=force)
    raise BackupFailed("restore needs a SQLite file or a PostgreSQL database")


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    uri = f"file:{path}?mode=ro" if read_only else f"file:{path}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    conn.execute("PRAGMA busy_timeout=10000")
    return conn


def sqlite_rows(conn: sqlite3.Connection) -> dict[str, int]:
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {name: conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}


def _revision(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row else None


def _backup_sqlite(db_file: Path, target: Path) -> BackupReport:
    if not db_file.is_file():
        raise BackupFailed(f"there is no database at {db_file}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        source = _connect(db_file)
        try:
            source.execute("VACUUM INTO ?", (str(partial),))
        finally:
            source.close()
        copy = _connect(partial)
        try:
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise BackupFailed(f"the copy failed its check: {checked}")
            report = BackupReport(target, _revision(copy), sqlite_rows(copy))
        finally:
            copy.close()
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupFailed(f"SQLite could not copy {db_file}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return report


def _restore_sqlite(source: Path, db_file: Path, force: bool) -> BackupReport:
    try:
        backup = _connect(source, read_only=True)
    except sqlite3.Error as exc:
        raise BackupFailed(f"cannot open {source}: {exc}") from exc
    try:
        checked = backup.execute("PRAGMA quick_check").fetchone()[0]
        if checked != "ok":
            raise BackupFailed(f"{source} is damaged: {checked}")
        revision = _revision(backup)
        if revision is None:
            raise BackupFailed(f"{source} is not a Krypkasino database (no schema revision)")
        if revision not in known_revisions():
            raise BackupFailed(
                f"{source} has schema revision {revision}, made by a newer release; "
                "restore it with that release"
            )
        rows = sqlite_rows(backup)
        db_file.parent.mkdir(parents=True, exist_ok=True)
        target = _connect(db_file)
        try:
            held = sqlite_rows(target).get("rooms", 0)
            if held and not force:
                raise BackupFailed(
                    f"{db_file} holds {held} room(s); stop the server and restore with "
                    "--force to replace them"
                )
            backup.backup(target)
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise BackupFailed(f"SQLite could not restore {source}: {exc}") from exc
    finally:
        backup.close()
    return BackupReport(db_file, revision, rows)
