"""PostgreSQL backups with the server's own COPY: no ``pg_dump`` needed, no version
match between client programs and the server.

A backup is a gzip-compressed tar file: ``manifest.json`` (format, the release
and schema revision that wrote it, each table's columns and row count) and one
file per table in COPY's text format.  Every table is read in one
``REPEATABLE READ`` read-only transaction, so the copy is one consistent
moment of the database however busy the server is meanwhile.

A restore creates the schema at the backup's revision (the migrations up to
it), loads the tables parents first, in one transaction, and moves each
serial column's sequence past its largest value.  Into a database that
already holds tables it goes only with ``force``, which first drops every table
of this application there (``app_tables``: those of every revision, so also
the ones later migrations made when the database is newer than the backup),
with the types, sequences and trigger functions only they used; nothing else
in the database is dropped.
"""

from __future__ import annotations

import io
import json
import sqlite3
import tarfile
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .. import __version__
from ..core.blocking import run_to_end
from .backup_types import BackupFailed, BackupReport, Manifest, TableEntry, manifest_of
from .revisions import apply, known_revisions, scripts

FORMAT = "krypkasino-postgres-backup"
FORMAT_VERSION = 1


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(_dsn(url), timeout=10)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        raise BackupFailed(f"cannot reach PostgreSQL: {exc}") from exc


async def _tables(conn: asyncpg.Connection) -> list[str]:
    rows = await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    )
    return [row["tablename"] for row in rows]


async def _columns(conn: asyncpg.Connection, table: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [row["column_name"] for row in rows]


async def _dump(url: str, target: Path) -> BackupReport:
    conn = await _connect(url)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tables: list[TableEntry] = []
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                names = await _tables(conn)
                if "alembic_version" not in names:
                    raise BackupFailed("this database holds no Krypkasino schema")
                revision = await conn.fetchval("SELECT version_num FROM alembic_version")
                for name in names:
                    columns = await _columns(conn, name)
                    await conn.copy_from_table(
                        name, columns=columns, output=str(Path(tmp) / f"{name}.copy")
                    )
                    rows = await conn.fetchval(f'SELECT count(*) FROM "{name}"')
                    tables.append({"name": name, "columns": columns, "rows": rows})
            manifest: Manifest = {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "app_version": __version__,
                "revision": revision,
                "taken_at": datetime.now(UTC).isoformat(),
                "tables": tables,
            }
            partial = target.with_name(target.name + ".partial")
            try:
                with tarfile.open(partial, "w:gz") as tar:
                    _add_bytes(tar, "manifest.json", json.dumps(manifest, indent=1).encode())
                    for table in tables:
                        tar.add(Path(tmp) / f"{table['name']}.copy", f"data/{table['name']}.copy")
                partial.replace(target)
            finally:
                partial.unlink(missing_ok=True)
    finally:
        await conn.close()
    return BackupReport(target, revision, {t["name"]: t["rows"] for t in tables})


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(time.time())
    tar.addfile(info, io.BytesIO(data))


def backup_postgres(url: str, target: Path) -> BackupReport:
    try:
        return run_to_end(_dump(url, target))
    except (OSError, asyncpg.PostgresError) as exc:
        raise BackupFailed(f"the backup failed: {exc}") from exc


def read_manifest(tar: tarfile.TarFile) -> Manifest:
    try:
        member = tar.extractfile("manifest.json")
    except KeyError:
        member = None
    if member is None:
        raise BackupFailed("not a Krypkasino PostgreSQL backup (no manifest.json)")
    return manifest_of(json.loads(member.read()), (FORMAT, FORMAT_VERSION))


def _parents_first(tables: list[str], edges: list[tuple[str, str]]) -> list[str]:
    """``tables`` ordered so that each comes after the tables it refers to."""
    ordered: list[str] = []
    left = list(tables)
    while left:
        ready = [t for t in left if not any(c == t and p in left and p != t for c, p in edges)]
        if not ready:
            raise BackupFailed(f"foreign keys form a loop among {left}")
        ordered += ready
        left = [t for t in left if t not in ready]
    return ordered


def app_tables() -> set[str]:
    """Every table this release's migrations create, at any revision (``alembic_version``
    and ``app_versions`` too): the tables a forced restore drops.  The backup's own
    are among them, since its revision is one of this release's; a table of the
    backup that no migration makes (a user's own: ``backup`` copies every table) is
    not dropped, but emptied and loaded as the backup has it.

    Found by running the migrations, one revision at a time, on a throwaway SQLite
    file and listing its tables after each: exact by construction, since the
    migrations are what made the tables of the database being replaced, whatever
    its revision.  The models' metadata is not: it describes the head schema only
    (a table that one migration made and a later one dropped, which a database at a
    revision between them still has and the next ``migrate`` makes again, is not in
    it), has no ``alembic_version``, and equals what the migrations make only
    because a test checks it (tests/db/test_repository.py), not by construction.
    The migrations name every table, so the names are PostgreSQL's too (batch
    mode's temporary copies exist only on SQLite, and only until their migration
    ends).  It takes about half a second, once per forced restore.
    """
    order = [rev.revision for rev in scripts().walk_revisions()][::-1]  # oldest first
    found: set[str] = set()
    try:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "schema.db"
            for revision in order:
                apply(f"sqlite:///{db}", revision)
                with closing(sqlite3.connect(db)) as conn:
                    found |= {
                        row[0]
                        for row in conn.execute(
                            "SELECT name FROM sqlite_master "
                            "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                        )
                    }
    except (OSError, sqlite3.Error, SQLAlchemyError) as exc:
        raise BackupFailed(
            f"cannot list this release's tables (in a temporary file): {exc}"
        ) from exc
    return found


_DROPPED = """WITH dropped AS (
    SELECT oid FROM pg_class
    WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
    AND relname = ANY($1::text[]))
"""

_BELONGINGS = (
    (
        "FUNCTION",
        _DROPPED + "SELECT DISTINCT p.oid::regprocedure::text FROM pg_trigger tg "
        "JOIN pg_proc p ON p.oid = tg.tgfoid "
        "WHERE tg.tgrelid IN (SELECT oid FROM dropped) AND NOT tg.tgisinternal "
        "AND p.pronamespace = 'public'::regnamespace",
    ),
    (
        "SEQUENCE",
        _DROPPED + "SELECT DISTINCT s.oid::regclass::text FROM pg_attrdef ad "
        "JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid "
        "AND d.refclassid = 'pg_class'::regclass "
        "JOIN pg_class s ON s.oid = d.refobjid AND s.relkind = 'S' "
        "WHERE ad.adrelid IN (SELECT oid FROM dropped) "
        "AND s.relnamespace = 'public'::regnamespace "
        "AND NOT EXISTS (SELECT 1 FROM pg_depend o WHERE o.classid = 'pg_class'::regclass "
        "AND o.objid = s.oid AND o.refclassid = 'pg_class'::regclass "
        "AND o.deptype IN ('a', 'i') AND o.refobjid NOT IN (SELECT oid FROM dropped))",
    ),
    (
        "DOMAIN",
        _DROPPED + "SELECT DISTINCT t.oid::regtype::text FROM pg_attribute a "
        "JOIN pg_type t ON t.oid = a.atttypid "
        "WHERE a.attrelid IN (SELECT oid FROM dropped) AND a.attnum > 0 "
        "AND t.typnamespace = 'public'::regnamespace AND t.typtype = 'd'",
    ),
    (
        "TYPE",
        _DROPPED + "SELECT DISTINCT t.oid::regtype::text FROM pg_attribute a "
        "JOIN pg_type used ON used.oid = a.atttypid "
        "JOIN pg_type t ON t.oid = CASE WHEN used.typcategory = 'A' "
        "THEN used.typelem ELSE used.oid END "
        "LEFT JOIN pg_class c ON c.oid = t.typrelid "
        "WHERE a.attrelid IN (SELECT oid FROM dropped) AND a.attnum > 0 "
        "AND t.typnamespace = 'public'::regnamespace "
        "AND (t.typtype IN ('e', 'r') OR c.relkind = 'c')",
    ),
)
"""What a migration may create beside a table and that does not go with it (its
indexes, constraints, triggers and serial or identity sequences do): the
functions its triggers call, a sequence its defaults draw from, the domains,
enum, range and composite types of its columns; each found by the query (of the
tables to drop, ``$1``), dropped after them unless something left still uses
it."""


async def _clear(url: str, tables: set[str], force: bool) -> None:
    """Drop ``tables`` (this application's) and what only they used, when ``force``."""
    conn = await _connect(url)
    try:
        present = await _tables(conn)
        if present and not force:
            rooms = await conn.fetchval("SELECT count(*) FROM rooms") if "rooms" in present else 0
            raise BackupFailed(
                f"the database already holds {len(present)} table(s) and {rooms} room(s); "
                "stop the server and restore with --force to replace them"
            )
        drop = [n for n in present if n in tables]
        if not drop:
            return
        async with conn.transaction():
            belongings = [
                (kind, row[0])
                for kind, query in _BELONGINGS
                for row in await conn.fetch(query, drop)
            ]
            await conn.execute("DROP TABLE " + ", ".join(f'"{n}"' for n in drop) + " CASCADE")
            for kind, name in belongings:
                try:
                    async with conn.transaction():  # a savepoint
                        await conn.execute(f"DROP {kind} IF EXISTS {name}")
                except asyncpg.DependentObjectsStillExistError:
                    pass  # another table (not ours) uses it too: it stays
    finally:
        await conn.close()


async def _load(url: str, tar: tarfile.TarFile, manifest: Manifest) -> None:
    conn = await _connect(url)
    try:
        by_name = {t["name"]: t for t in manifest["tables"]}
        edges = [
            (row["child"], row["parent"])
            for row in await conn.fetch(
                "SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent "
                "FROM pg_constraint WHERE contype = 'f' "
                "AND connamespace = 'public'::regnamespace"
            )
        ]
        order = _parents_first(list(by_name), edges)
        async with conn.transaction():
            for name in reversed(order):  # what the migrations wrote (alembic_version)
                await conn.execute(f'DELETE FROM "{name}"')
            for name in order:
                data = tar.extractfile(f"data/{name}.copy")
                if data is None:
                    raise BackupFailed(f"the backup has no data for {name}")
                await conn.copy_to_table(name, source=data, columns=by_name[name]["columns"])
                await _advance_sequences(conn, name)
            for name, table in by_name.items():
                rows = await conn.fetchval(f'SELECT count(*) FROM "{name}"')
                if rows != table["rows"]:
                    raise BackupFailed(f"{name}: {rows} rows restored, {table['rows']} backed up")
    finally:
        await conn.close()


async def _advance_sequences(conn: asyncpg.Connection, table: str) -> None:
    """Move a serial column's sequence past the restored rows (COPY does not)."""
    for column in await _columns(conn, table):
        sequence = await conn.fetchval("SELECT pg_get_serial_sequence($1, $2)", table, column)
        if sequence:
            await conn.execute(
                f'SELECT setval($1, COALESCE((SELECT max("{column}") FROM "{table}"), 0) + 1,'
                " false)",
                sequence,
            )


def restore_postgres(url: str, source: Path, *, force: bool = False) -> BackupReport:
    try:
        tar = tarfile.open(source, "r:gz")
    except (tarfile.TarError, OSError) as exc:
        raise BackupFailed(f"{source} is not a PostgreSQL backup of this program: {exc}") from exc
    with tar:
        manifest = read_manifest(tar)
        revision = manifest["revision"]
        if revision not in known_revisions():
            raise BackupFailed(
                f"{source} has schema revision {revision}, made by release "
                f"{manifest['app_version']}; restore it with that release"
            )
        # Without force nothing is dropped: a database holding tables is refused.
        ours = app_tables() if force else set()
        try:
            run_to_end(_clear(url, ours, force))
            apply(url, revision)
            run_to_end(_load(url, tar, manifest))
        except asyncpg.PostgresError as exc:
            raise BackupFailed(
                f"the restore failed: {exc}; the database may hold an empty schema now "
                "(run the restore again with --force)"
            ) from exc
    return BackupReport(source, revision, {t["name"]: t["rows"] for t in manifest["tables"]})
