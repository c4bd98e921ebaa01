"""Apply Alembic migrations from code (``krypkasino migrate`` and ``serve``), safely.

Before a migration changes a database that holds data, a copy of it is
taken: on SQLite always (``VACUUM INTO``, next to the file or in BACKUP_DIR,
named with the schema revision and the time), and the migration does not run
if the copy cannot be made; on PostgreSQL when BACKUP_DIR is set
(``krypkasino backup``'s format), otherwise the command says how to take one
(``pg_dump``) and migrates only when told to (``--yes``).  A database that a
newer release opened is refused before anything is touched
(app/db/versions.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, make_url

from .. import __version__
from .backup import backup_database
from .backup_types import BackupFailed
from .revisions import apply, head_revision, known_revisions, pending_revisions
from .sync_connection import backend, run_with_connection, sqlite_path
from .versions import is_newer, newest, record_version, recorded_versions


class MigrationRefused(Exception):
    """The database was left as it was; the message says why and what to do."""


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands against this release's migrations."""

    backend: str
    current: str | None
    """Its Alembic revision; None for a database no migration has touched."""
    head: str
    """The newest revision this release knows."""
    pending: tuple[str, ...]
    """The revisions an upgrade applies, oldest first (empty when ``known`` is False)."""
    known: bool
    """Whether ``current`` is one of this release's revisions (False: a newer schema)."""
    tables: int
    """Tables in the database, any at all (0: a new, empty database)."""
    versions: tuple[str, ...]
    """The releases that opened it (app_versions)."""

    @property
    def holds_data(self) -> bool:
        return self.current is not None or self.tables > 0


def _read(conn: Connection) -> tuple[str | None, int, list[str]]:
    current = MigrationContext.configure(conn).get_current_revision()
    return current, len(inspect(conn).get_table_names()), recorded_versions(conn)


def read_state(url: str) -> SchemaState:
    current, tables, versions = run_with_connection(url, _read)
    head = head_revision()
    known = current is None or current in known_revisions()
    pending = pending_revisions(current) if known else ()
    return SchemaState(backend(url), current, head, pending, known, tables, tuple(versions))


def check_not_newer(state: SchemaState) -> None:
    """Refuse a database that a newer release has opened or migrated."""
    made_by = newest(list(state.versions))
    if state.known and (made_by is None or not is_newer(made_by)):
        return
    by = f"Krypkasino {made_by}" if made_by else "a newer release"
    if not state.known:
        what = (
            f"it has schema revision {state.current}, which this release ({__version__}, "
            f"schema up to {state.head}) does not know: {by} migrated it"
        )
    else:
        what = f"it was opened by {by}, newer than this release ({__version__})"
    raise MigrationRefused(
        f"{what}. Run {by} or later, or roll back by restoring the backup taken before "
        "the upgrade (docs/deploy.md, 'Rolling back')."
    )


@dataclass(frozen=True)
class Upgraded:
    """What ``upgrade`` did."""

    previous: str | None
    head: str
    applied: tuple[str, ...]
    backup: Path | None
    """The copy taken before migrating, if one was."""


def backup_name(revision: str, now: datetime, stem: str, suffix: str, n: int = 1) -> str:
    """``krypkasino.schema-0006.20261204T061500Z.db``: which schema, and when; the
    ``n``-th of that second gets ``-n`` after the time (``...061500Z-2.db``)."""
    again = "" if n == 1 else f"-{n}"
    return f"{stem}.schema-{revision}.{now.astimezone(UTC):%Y%m%dT%H%M%SZ}{again}{suffix}"


def unused_backup(folder: Path, revision: str, now: datetime, stem: str, suffix: str) -> Path:
    """The first backup name of that second not taken in ``folder``.  Names go to the
    second, and a backup never overwrites a file: a restore and a second migration
    within one second (an operator's script, a fast test) would otherwise be refused."""
    n = 1
    while (target := folder / backup_name(revision, now, stem, suffix, n)).exists():
        n += 1
    return target


def _backup_before(
    url: str, state: SchemaState, backup_dir: Path | None, now: datetime | None = None
) -> Path:
    now = now or datetime.now(UTC)
    revision = state.current or "none"
    db_file = sqlite_path(url)
    if db_file is not None:
        folder = backup_dir or Path(db_file).resolve().parent
        target = unused_backup(folder, revision, now, Path(db_file).stem, Path(db_file).suffix)
    else:
        assert backup_dir is not None
        name = make_url(url).database or "krypkasino"
        target = unused_backup(backup_dir, revision, now, name, ".tar.gz")
    try:
        return backup_database(url, target).path
    except (BackupFailed, OSError) as exc:
        raise MigrationRefused(
            f"the database was not migrated, because the backup before the migration "
            f"failed: {exc}. Free some space or make {target.parent} writable "
            f"(or set BACKUP_DIR to another folder), then start again."
        ) from exc


def _postgres_advice(url: str, state: SchemaState) -> str:
    shown = make_url(url).set(drivername="postgresql").render_as_string(hide_password=True)
    stamp = f"{datetime.now(UTC):%Y%m%d}"
    name = f"krypkasino-schema-{state.current}-{stamp}"
    return (
        f"this PostgreSQL database is at schema {state.current}, and this release "
        f"({__version__}) migrates it to {state.head} ({len(state.pending)} migration(s): "
        f"{', '.join(state.pending)}). Back it up first, with either of:\n"
        f"  pg_dump --format=custom --file={name}.dump '{shown}'\n"
        f"  krypkasino backup {name}.tar.gz\n"
        "then run 'krypkasino migrate --yes' (or 'serve --yes'); or set BACKUP_DIR to a "
        "folder and the migration takes its own backup there first."
    )


def upgrade(url: str, *, confirmed: bool = False, backup_dir: Path | None = None) -> Upgraded:
    """Bring the database to the newest revision, after the checks and the backup the
    module's docstring describes; raises MigrationRefused with nothing changed."""
    state = read_state(url)
    check_not_newer(state)
    copy: Path | None = None
    if state.pending and state.holds_data:
        if state.backend == "sqlite" or backup_dir is not None:
            copy = _backup_before(url, state, backup_dir)
        elif not confirmed:
            raise MigrationRefused(_postgres_advice(url, state))
    if state.pending:
        apply(url, state.head)
    run_with_connection(url, lambda conn: record_version(conn, state.head))
    return Upgraded(state.current, state.head, state.pending, copy)
