"""What a backup or a restore reports, and how it fails (app/db/backup.py); the
manifest of a PostgreSQL backup (app/db/pg_archive.py), and how one is read back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from app.core.json import JsonValue


class BackupFailed(Exception):
    """A backup or restore that did not happen; the message says why.  Nothing was
    changed (a restore into PostgreSQL that failed half-way says so)."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    revision: str | None
    rows: dict[str, int]
    """Rows per table in the copy."""


class TableEntry(TypedDict):
    """A table of a PostgreSQL backup: its columns in the order of its COPY file, and
    its rows (checked again after the restore)."""

    name: str
    columns: list[str]
    rows: int


class Manifest(TypedDict):
    """``manifest.json`` of a PostgreSQL backup."""

    format: str
    format_version: int
    app_version: str
    revision: str
    taken_at: str
    tables: list[TableEntry]


def _table(raw: JsonValue) -> TableEntry | None:
    if not isinstance(raw, dict):
        return None
    name, columns, rows = raw.get("name"), raw.get("columns"), raw.get("rows")
    if not (isinstance(name, str) and isinstance(columns, list) and isinstance(rows, int)):
        return None
    names = [c for c in columns if isinstance(c, str)]
    return {"name": name, "columns": names, "rows": rows} if len(names) == len(columns) else None


def manifest_of(raw: JsonValue, expected: tuple[str, int]) -> Manifest:
    """A manifest read back, each field of the kind it was written with; BackupFailed
    for a document that is not one of this ``(format, format_version)``."""
    refused = BackupFailed("not a Krypkasino PostgreSQL backup of a format this release reads")
    if not isinstance(raw, dict) or (raw.get("format"), raw.get("format_version")) != expected:
        raise refused
    revision, tables = raw.get("revision"), raw.get("tables")
    if not isinstance(revision, str) or not isinstance(tables, list):
        raise refused
    entries = [t for t in map(_table, tables) if t is not None]
    if len(entries) != len(tables):
        raise refused
    return {
        "format": expected[0],
        "format_version": expected[1],
        "app_version": str(raw.get("app_version")),
        "revision": revision,
        "taken_at": str(raw.get("taken_at")),
        "tables": entries,
    }
