"""Which releases of the server opened a database, and whether this one may.

Every release that migrates or serves a database writes its version into
``app_versions`` (migration 0007).  A server refuses to start on a database
that a newer release has opened: the newer release may have changed the
schema (a revision this release does not know) or the meaning of stored data
in ways the older code would misread.  Rolling back is done by restoring the
backup taken before the upgrade (docs/deploy.md).
"""

from __future__ import annotations

import re
import time

from sqlalchemy import insert, inspect, select
from sqlalchemy.engine import Connection

from .. import __version__
from .models import AppVersion, table_of

_NUMBERS = re.compile(r"\d+")


def version_key(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` as ``(0, 10, 2)``: compared as numbers, not as text (a suffix such
    as ``rc1`` is ignored)."""
    return tuple(int(part) for part in _NUMBERS.findall(version.split("+", 1)[0])[:3])


def newest(versions: list[str]) -> str | None:
    return max(versions, key=version_key, default=None)


def is_newer(version: str, than: str = __version__) -> bool:
    return version_key(version) > version_key(than)


def recorded_versions(conn: Connection) -> list[str]:
    """The releases that opened the database (none before migration 0007 existed)."""
    if not inspect(conn).has_table(AppVersion.__tablename__):
        return []
    return [row[0] for row in conn.execute(select(AppVersion.version))]


def record_version(conn: Connection, revision: str, version: str = __version__) -> bool:
    """Write this release into the database once; True when it was new there."""
    if version in recorded_versions(conn):
        return False
    conn.execute(
        insert(table_of(AppVersion)).values(
            version=version, revision=revision, first_ms=int(time.time() * 1000)
        )
    )
    return True
