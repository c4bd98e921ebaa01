"""The async database engine: SQLite (WAL) by default, PostgreSQL via DATABASE_URL."""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time
from collections.abc import Awaitable, Callable
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

from .inline_sqlite import DRIVER_ERRORS, LoopWrites

T = TypeVar("T")


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file (./data/ by default) before connecting."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # The busy timeout first: every later statement, the journal mode's too, then waits
    # for a lock another process holds instead of failing at once ("database is
    # locked" when two processes open the file at the same moment).
    cur.execute("PRAGMA busy_timeout=5000")
    _ensure_wal(cur)
    cur.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across process crashes
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


WAL_SWITCH_TRIES = 100
"""Times a connection tries to put a new file in WAL mode while others do the same."""


def _ensure_wal(cur: Any) -> None:
    """Put the file in WAL mode (readers never block the writer) unless it is already:
    the mode is kept in the file, so only a new file is switched, and the switch needs
    a lock no other connection may hold.  Two connections switching a new file at the
    same moment (two processes, or a process's writer and its readers, starting
    together) each hold the shared lock the other must wait for; SQLite then fails
    one of them at once, without the busy timeout ("database is locked": one fresh
    CI run in a few hundred, 31 of 200 with four connections at once).  That one
    looks again: by then the other has switched the file."""
    for attempt in range(WAL_SWITCH_TRIES):
        try:
            cur.execute("PRAGMA journal_mode")
            if str(cur.fetchone()[0]).lower() != "wal":
                cur.execute("PRAGMA journal_mode=WAL")
            return
        except DRIVER_ERRORS as exc:
            if "locked" not in str(exc) or attempt == WAL_SWITCH_TRIES - 1:
                raise
            time.sleep(0.01 * (1 + attempt % 5))


def make_engine(url: str, timeout: float = 10.0) -> AsyncEngine:
    """The async engine; on PostgreSQL, every wait on the database is bounded by
    ``timeout`` seconds (connecting, a statement, a free pooled connection), so a
    database that stops answering turns into an ``unavailable`` error instead of a
    room whose lock is held forever."""
    ensure_sqlite_dir(url)
    if make_url(url).get_backend_name() == "postgresql":
        engine = create_async_engine(
            url,
            pool_size=10,
            max_overflow=20,
            pool_pre_ping=True,
            pool_timeout=timeout,
            connect_args={"timeout": timeout, "command_timeout": timeout},
        )
    else:
        engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]
"""A function of the connection, its arguments, and the future for its result."""
_Outcome = tuple["asyncio.Future[Any]", Any, BaseException | None]
_CHECKPOINT = "checkpoint"
"""Queued for the thread: a checkpoint of the WAL (see ``LoopWrites``)."""
WAL_RESTART_BYTES = 16 * 1024 * 1024
"""A WAL larger than this after a passive checkpoint is restarted: about what the
loop writes between two checkpoints (CHECKPOINT_EVERY commits of a few pages)."""
RESTART_WAIT_MS = 100
"""How long a restarting checkpoint waits for the lock and for readers (writes that
come meanwhile wait on the writer thread, the loop does not)."""


class SqliteWriter:
    """Runs SQLite write transactions on one dedicated thread, committed in groups;
    a move's transaction instead on the loop's own thread (``run_soon``).

    aiosqlite sends every statement to its thread and back; a move's
    transaction has several.  SQLite takes one writer at a time anyway, so a
    single writer thread with a plain (sync) engine does the work, and it
    takes every transaction waiting at that moment into one commit.  Under
    load that is one commit for many moves instead of one thread hop and one
    commit each.  The thread keeps its connection open: a pool checkout and
    return per batch cost about a sixth of a move's database time.

    A failing job must roll back alone.  Jobs nearly never fail, so a batch
    first runs without savepoints (two statements per job saved, a third of
    a move's database time); only when one of them raises is the batch rolled
    back and run again with a savepoint per job.  Jobs are functions of the
    connection alone, so running one twice is the same as running it once.
    """

    def __init__(self, url: str, loop_writes: bool = True) -> None:
        from sqlalchemy import create_engine

        sync_url = make_url(url).set(drivername="sqlite")
        self.engine = create_engine(sync_url)
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self._jobs: queue.SimpleQueue[list[_Job] | str | None] = queue.SimpleQueue()
        self._closed = False
        self._conn: Any = None
        """The thread's connection, kept open between batches."""
        self._checkpoint_queued = False
        self.restarting = False
        """True while this thread's RESTART checkpoint holds the write lock: the loop
        keeps its writes until it is over instead of handing them to this thread
        (app/db/inline_sqlite.py)."""
        self.loop_writes = LoopWrites(self) if loop_writes else None
        self._thread = threading.Thread(target=self._serve, name="sqlite-writer", daemon=True)
        self._thread.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` in a transaction on the writer thread; its
        result, or its exception."""
        if self._closed:
            raise RuntimeError("the SQLite writer is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put([(fn, args, future)])
        return await future

    def run_soon(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]:
        """Like ``run``, committed at the end of this tick of the loop with the other
        writes of the tick, on the loop's own thread when the database lets it
        (app/db/inline_sqlite.py); the hot path of every move.  Returns the future
        itself rather than a coroutine awaiting it: one frame less to create and to
        resume for every move."""
        if self._closed:
            raise RuntimeError("the SQLite writer is closed")
        if self.loop_writes is None:
            return self.run(fn, *args)
        future: Awaitable[T] = self.loop_writes.run(fn, *args)
        return future

    def submit(self, jobs: list[_Job]) -> None:
        """Queue jobs whose futures already exist (the loop's fallback to the thread)."""
        self._jobs.put(jobs)

    def checkpoint_soon(self) -> None:
        """Ask the thread for a passive checkpoint of the WAL (once queued, not again)."""
        if not self._checkpoint_queued:
            self._checkpoint_queued = True
            self._jobs.put(_CHECKPOINT)

    def _serve(self) -> None:
        """The writer thread: each wake-up takes every job waiting into one batch.

        A plain thread on a C queue rather than an executor: a move pays one
        queue put to get here and one loop callback for its whole batch to get
        back, instead of an executor's futures, locks and work items."""
        while True:
            item = self._jobs.get()
            batch: list[_Job] = []
            stop = checkpoint = False
            while True:
                if item is None:
                    stop = True
                    break
                if item == _CHECKPOINT:
                    checkpoint = True
                else:
                    assert not isinstance(item, str)
                    batch.extend(item)
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._drain(batch)
            if checkpoint:
                self._checkpoint()
            if stop:
                self._close_connection()
                return

    def _checkpoint(self) -> None:
        """Copy the WAL into the database without stopping the loop's writes (PASSIVE);
        if it is still over WAL_RESTART_BYTES (the loop wrote on meanwhile, so the WAL
        never ran empty and could not start again from its beginning), take the write
        lock for a moment (RESTART, waiting at most RESTART_WAIT_MS for the lock and for
        readers) so that the next write starts the WAL afresh."""
        self._checkpoint_queued = False
        try:
            driver = self._connection().connection.driver_connection
            driver.execute("PRAGMA wal_checkpoint(PASSIVE)")
            if self._wal_bytes() > WAL_RESTART_BYTES:
                driver.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")
                self.restarting = True
                try:
                    driver.execute("PRAGMA wal_checkpoint(RESTART)")
                finally:
                    self.restarting = False
                    driver.execute("PRAGMA busy_timeout=5000")
        except (*DRIVER_ERRORS, OSError):  # an optimisation: the next one tries again
            self._close_connection()

    def _wal_bytes(self) -> int:
        try:
            return os.path.getsize(f"{self.engine.url.database}-wal")
        except OSError:
            return 0

    def _drain(self, batch: list[_Job]) -> None:
        try:
            outcomes = self._run_batch(batch)
        except BaseException as exc:  # noqa: BLE001 - the commit failed: each job is told
            self._close_connection()
            outcomes = [(future, None, exc) for _, _, future in batch]
        by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle_all, settled)
            except RuntimeError:  # that loop is closed: nobody waits any more
                pass

    def _connection(self) -> Any:
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except DRIVER_ERRORS:  # broken: let the pool forget it
                conn.invalidate()

    def _run_batch(self, batch: list[_Job]) -> list[_Outcome]:
        """Every job of ``batch`` in one transaction; a failing job changes nothing."""
        conn = self._connection()
        conn.begin()
        try:
            results = [fn(conn, *args) for fn, args, _ in batch]
        except BaseException:
            conn.rollback()
            if len(batch) == 1:
                raise  # alone in its transaction: it failed alone
        else:
            conn.commit()
            return [(future, result, None) for (_, _, future), result in zip(batch, results)]
        return self._run_isolated(batch)

    def _run_isolated(self, batch: list[_Job]) -> list[_Outcome]:
        """The slow path: each job in its own savepoint, so that one failing rolls
        back alone and the others commit together."""
        outcomes: list[_Outcome] = []
        conn = self._connection()
        with conn.begin():
            for fn, args, future in batch:
                savepoint = conn.begin_nested()
                try:
                    result = fn(conn, *args)
                except BaseException as exc:  # noqa: BLE001 - passed to this job's caller
                    savepoint.rollback()
                    outcomes.append((future, None, exc))
                else:
                    savepoint.commit()
                    outcomes.append((future, result, None))
        return outcomes

    def close(self) -> None:
        """Finish the jobs already queued (the loop's too), then stop the thread."""
        self._closed = True
        if self.loop_writes is not None:
            self.loop_writes.close()
        self._jobs.put(None)
        self._thread.join()
        self.engine.dispose()


def _settle_all(outcomes: list[_Outcome]) -> None:
    for future, result, error in outcomes:
        _settle(future, result, error)


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
