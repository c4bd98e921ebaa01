"""What a backup or a restore reports, and how it fails (app/db/backup.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class BackupFailed(Exception):
    """A backup or restore that did not happen; the message says why.  Nothing was
    changed (a restore into PostgreSQL that failed half-way says so)."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    revision: str | None
    rows: dict[str, int]
    """Rows per table in the copy."""
