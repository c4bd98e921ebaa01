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
already holds tables it goes only with ``force``, which first drops this
application's tables (those of the backup and Alembic's); nothing else in the
database is touched.
"""

from __future__ import annotations

import asyncio
import io
import json
import tarfile
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from .. import __version__
from .backup_types import BackupFailed, BackupReport
from .revisions import apply, known_revisions

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
            tables: list[dict[str, Any]] = []
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
            manifest = {
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
        return asyncio.run(_dump(url, target))
    except (OSError, asyncpg.PostgresError) as exc:
        raise BackupFailed(f"the backup failed: {exc}") from exc


def read_manifest(tar: tarfile.TarFile) -> dict[str, Any]:
    try:
        member = tar.extractfile("manifest.json")
    except KeyError:
        member = None
    if member is None:
        raise BackupFailed("not a Krypkasino PostgreSQL backup (no manifest.json)")
    manifest: dict[str, Any] = json.loads(member.read())
    if manifest.get("format") != FORMAT or manifest.get("format_version") != FORMAT_VERSION:
        raise BackupFailed("not a Krypkasino PostgreSQL backup of a format this release reads")
    return manifest


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


async def _clear(url: str, names: list[str], force: bool) -> None:
    conn = await _connect(url)
    try:
        present = await _tables(conn)
        if present and not force:
            rooms = await conn.fetchval("SELECT count(*) FROM rooms") if "rooms" in present else 0
            raise BackupFailed(
                f"the database already holds {len(present)} table(s) and {rooms} room(s); "
                "stop the server and restore with --force to replace them"
            )
        drop = [n for n in present if n in {*names, "alembic_version", "app_versions"}]
        if drop:
            await conn.execute("DROP TABLE " + ", ".join(f'"{n}"' for n in drop) + " CASCADE")
    finally:
        await conn.close()


async def _load(url: str, tar: tarfile.TarFile, manifest: dict[str, Any]) -> None:
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
                f"{manifest.get('app_version')}; restore it with that release"
            )
        names = [t["name"] for t in manifest["tables"]]
        try:
            asyncio.run(_clear(url, names, force))
            apply(url, revision)
            asyncio.run(_load(url, tar, manifest))
        except asyncpg.PostgresError as exc:
            raise BackupFailed(
                f"the restore failed: {exc}; the database may hold an empty schema now "
                "(run the restore again with --force)"
            ) from exc
    return BackupReport(source, revision, {t["name"]: t["rows"] for t in manifest["tables"]})
