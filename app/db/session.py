"""The async database engine: SQLite (WAL) by default, PostgreSQL via DATABASE_URL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

T = TypeVar("T")


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file (./data/ by default) before connecting."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cur.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across process crashes
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(url: str, timeout: float = 10.0) -> AsyncEngine:
    """The async engine; on PostgreSQL, every wait on the database is bounded by
    ``timeout`` seconds (connecting, a statement, a free pooled connection), so a
    database that stops answering turns into an ``unavailable`` error instead of a
    room whose lock is held forever."""
    ensure_sqlite_dir(url)
    kwargs: dict[str, Any] = {}
    if make_url(url).get_backend_name() == "postgresql":
        kwargs.update(
            pool_size=10,
            max_overflow=20,
            pool_pre_ping=True,
            pool_timeout=timeout,
            connect_args={"timeout": timeout, "command_timeout": timeout},
        )
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


class SqliteWriter:
    """Runs SQLite write transactions on one dedicated thread, committed in groups.

    aiosqlite sends every statement to its thread and back; a move's
    transaction has several.  SQLite takes one writer at a time anyway, so a
    single writer thread with a plain (sync) engine does the work, and it
    takes every transaction waiting at that moment into one commit, each in
    its own savepoint (a failing one rolls back alone).  Under load that is
    one commit for many moves instead of one thread hop and one commit each.
    """

    def __init__(self, url: str) -> None:
        import concurrent.futures
        import threading

        from sqlalchemy import create_engine

        sync_url = make_url(url).set(drivername="sqlite")
        self.engine = create_engine(sync_url)
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        self._lock = threading.Lock()
        self._pending: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` in a transaction; its result, or its exception."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._pending.append((fn, args, future))
        self._thread.submit(self._drain)
        return await future

    def _drain(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
        if not batch:
            return  # an earlier drain took these jobs along
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            with self.engine.begin() as conn:
                for fn, args, future in batch:
                    savepoint = conn.begin_nested()
                    try:
                        result = fn(conn, *args)
                    except BaseException as exc:  # this job fails alone
                        savepoint.rollback()
                        outcomes.append((future, None, exc))
                    else:
                        savepoint.commit()
                        outcomes.append((future, result, None))
        except BaseException as exc:  # the commit itself failed: every job failed
            outcomes = [(future, None, exc) for _, _, future in batch]
        for future, result, error in outcomes:
            future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self.engine.dispose()


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def make_writer(url: str) -> SqliteWriter | None:
    """A SqliteWriter for a SQLite URL; None for databases with a native async driver."""
    return SqliteWriter(url) if make_url(url).get_backend_name() == "sqlite" else None
