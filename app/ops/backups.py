"""``krypkasino backup FILE`` and ``krypkasino restore FILE [--force]`` (app/db/backup.py).

Both work on DATABASE_URL with no server needed; ``backup`` may run while the
server plays on, ``restore`` wants the server stopped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _summary(rows: dict[str, int]) -> str:
    shown = ("rooms", "events", "deals")
    return ", ".join(f"{rows.get(name, 0)} {name}" for name in shown)


def _backup(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db.backup import backup_database
    from app.db.backup_types import BackupFailed

    try:
        report = backup_database(get_settings().database_url, Path(args.file))
    except BackupFailed as exc:
        print(f"krypkasino: backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"backup of schema {report.revision} written to {report.path} ({_summary(report.rows)})")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db.backup import restore_database
    from app.db.backup_types import BackupFailed

    try:
        report = restore_database(get_settings().database_url, Path(args.file), force=args.force)
    except BackupFailed as exc:
        print(f"krypkasino: restore failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"restored {args.file} (schema {report.revision}; {_summary(report.rows)}); "
        "the next migrate or serve brings it up to date"
    )
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bk = sub.add_parser(
        "backup", help="write a consistent copy of the database to FILE (the server may run)"
    )
    bk.add_argument("file", help="a new file: SQLite, a database file; PostgreSQL, a .tar.gz")
    bk.set_defaults(func=_backup)
    rs = sub.add_parser(
        "restore", help="replace the database with a backup (stop the server first)"
    )
    rs.add_argument("file", help="a file written by 'krypkasino backup' (or by migrate)")
    rs.add_argument(
        "--force", action="store_true", help="replace a database that already holds rooms"
    )
    rs.set_defaults(func=_restore)
