"""One short-lived connection for the operator's commands (migrate, backup, restore),
with the work written as a plain function of a sync SQLAlchemy ``Connection``.

SQLite gets the standard library's driver directly (these commands run before
the server and its event loop exist); PostgreSQL has only an async driver
here, so the function runs on an async connection through ``run_sync`` in an
event loop of its own (app/core/blocking.py: in a thread of its own when the caller's
thread runs a loop already).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from app.core.blocking import run_to_end

from .session import ensure_sqlite_dir, make_engine

T = TypeVar("T")


def backend(url: str) -> str:
    """``sqlite`` or ``postgresql``."""
    return make_url(url).get_backend_name()


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL; None for an in-memory database or another backend."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return str(parsed.database)


def _pragmas(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA busy_timeout=5000")


def run_with_connection(url: str, fn: Callable[[Connection], T]) -> T:
    """``fn(connection)`` inside one transaction, committed when it returns."""
    if backend(url) == "sqlite":
        ensure_sqlite_dir(url)
        engine = create_engine(make_url(url).set(drivername="sqlite"), poolclass=NullPool)
        event.listen(engine, "connect", _pragmas)
        try:
            with engine.begin() as conn:
                return fn(conn)
        finally:
            engine.dispose()

    async def run() -> T:
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(fn)
        finally:
            await engine.dispose()

    return run_to_end(run())
