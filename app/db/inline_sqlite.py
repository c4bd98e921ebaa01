"""A move's SQLite transaction on the event loop's own thread, one commit per tick.

Handing a move to the writer thread and back costs two thread wake-ups and a
turn of the GIL each way; on a 2-core VM that was more CPU than SQLite's own
work for the move (bench: 0.29 against 0.17 ms a move, docs/benchmarks.md).
So the moves of one tick of the loop are gathered and committed together in
one transaction right here, at the end of the tick, with no thread involved.

The writer thread stays, for everything else and as the fallback: SQLite
lets one writer in at a time, and the loop must never wait for the lock
(an operator's command in another process may hold it for a while).  The
loop's connection does not wait at all (``busy_timeout=0``), so a batch that
finds the lock taken, or fails in any other way, is rolled back and handed
whole to the writer thread, which waits for the lock and tells a failing job
from the others as it always did.  Jobs are functions of the connection alone:
running one again on the thread is the same as running it once.  Once a batch
went to the thread, later ones follow it there until it is done, so writes
stay in order.

The loop must not wait for the disk either.  Its connection never checkpoints
(``wal_autocheckpoint=0``); every ``CHECKPOINT_EVERY`` commits the writer
thread runs a passive checkpoint with its own connection (SQLite's work, and
its fsyncs, away from the loop and without the GIL).  A commit that took
longer than ``SLOW_COMMIT_SECONDS`` (a slow or busy disk) sends the writes of
the next ``SLOW_BACKOFF_SECONDS`` to the thread as before.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

DRIVER_ERRORS = (sqlite3.Error, SQLAlchemyError)
"""What SQLite (or SQLAlchemy over it) raises for a connection that is locked, broken
or closed."""

CHECKPOINT_EVERY = 1000
"""Commits on the loop between two passive checkpoints on the writer thread.  A
checkpoint copies each page once however often the WAL holds it, and the moves of
500 rooms touch the same index and room pages again within seconds: at 1,000
commits instead of 200 the server wrote 30% fewer bytes a move (35 -> 24.5 KB)
and read 38% fewer (docs/benchmarks.md)."""

RESTART_POLL_SECONDS = 0.002
"""While the writer thread's RESTART checkpoint holds the lock, the loop looks again
this often (the checkpoint takes a few milliseconds, at most RESTART_WAIT_MS)."""

CACHE_KIB = 16384
"""The loop connection's page cache.  SQLite's default (2 MB) holds about half of
what the moves of 500 rooms touch (each room's last index and table pages), so most
moves read a few pages back from the file; this holds them all."""

SLOW_COMMIT_SECONDS = 0.025
"""A batch that took longer than this on the loop sends the next ones to the thread."""

SLOW_BACKOFF_SECONDS = 10.0
"""How long writes stay on the thread after a slow commit on the loop."""

Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


def _loop_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode")
    if str(cur.fetchone()[0]).lower() != "wal":
        cur.execute("PRAGMA journal_mode=WAL")  # as session.py: only a file not in it yet
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=0")  # never wait for the lock: the thread will
    cur.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run on the thread
    cur.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    cur.close()


class WriterThread(Protocol):
    """What the loop asks of the writer thread (``SqliteWriter``, app/db/session.py,
    which builds this half and hands itself in)."""

    engine: Engine
    restarting: bool
    """True while the thread's RESTART checkpoint holds the write lock."""

    def checkpoint_soon(self) -> None: ...

    def submit(self, jobs: list[Any]) -> None: ...


class LoopWrites:
    """The loop-thread half of ``SqliteWriter`` (see the module's docstring)."""

    def __init__(self, writer: WriterThread) -> None:
        self.writer = writer
        self.engine: Engine = create_engine(
            writer.engine.url,
            poolclass=StaticPool,
            # One loop uses it at a time (see ``run``); a loop that ended may hand it on.
            connect_args={"check_same_thread": False},
        )
        event.listen(self.engine, "connect", _loop_pragmas)
        self._conn: Connection | None = None
        self._driver: Any = None
        """The ``sqlite3`` connection under ``_conn``: the batch commits on it directly."""
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop that owns the connection; another may take it once that one closed."""
        self._pending: list[Job] = []
        self._scheduled = False
        self._on_thread = 0
        """Batches handed to the writer thread and not yet settled."""
        self._thread_until = 0.0
        """Until then (monotonic) writes go to the thread: a commit here was slow."""
        self._commits = 0
        self.stats = {"loop_commits": 0, "loop_jobs": 0, "handed_over": 0, "slow": 0}

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Queue ``fn(connection, *args)`` for this tick's commit; its future."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        job: Job = (fn, args, future)
        if self._loop is None or (self._loop is not loop and self._loop.is_closed()):
            self._loop, self._pending, self._scheduled, self._on_thread = loop, [], False, 0
        if (
            loop is not self._loop
            or self._on_thread
            or (self._thread_until and time.monotonic() < self._thread_until)
        ):
            self._hand_over([job])
            return future
        self._pending.append(job)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._commit_pending)
        return future

    def _commit_pending(self) -> None:
        """The end of the tick: every write queued in it, in one transaction."""
        self._scheduled = False
        batch, self._pending = self._pending, []
        if not batch:
            return
        if self._on_thread:  # an earlier batch is still on the thread: stay behind it
            self._hand_over(batch)
            return
        if self.writer.restarting:
            # The thread's own checkpoint holds the lock for a moment.  Handed over,
            # the batch would wait for it there just the same, and commit from the
            # thread's connection, which empties this connection's page cache (SQLite
            # drops it when another connection wrote): wait here instead.
            self._pending = batch + self._pending
            self._scheduled = True
            asyncio.get_running_loop().call_later(RESTART_POLL_SECONDS, self._commit_pending)
            return
        try:
            results, took = self._run(batch)
        except Exception:  # noqa: BLE001 - locked by someone else, or a job failed; nothing
            # is lost: the writer thread runs the batch again, a savepoint per job, and
            # each job's own failure goes to the job's caller
            self._hand_over(batch)
            return
        if took > SLOW_COMMIT_SECONDS:
            self.stats["slow"] += 1
            self._thread_until = time.monotonic() + SLOW_BACKOFF_SECONDS
        self.stats["loop_commits"] += 1
        self.stats["loop_jobs"] += len(batch)
        for (_, _, future), result in zip(batch, results):
            if not future.cancelled():
                future.set_result(result)
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            self.writer.checkpoint_soon()

    def _run(self, batch: list[Job]) -> tuple[list[Any], float]:
        """The batch's results, and how long SQLite's commit took (the part that
        writes to the disk: timed alone, so that a collector pause in the jobs'
        Python is not taken for a slow disk).

        The transaction is the driver's own: ``sqlite3`` begins it at the batch's
        first write and it is committed on the driver, without SQLAlchemy's
        transaction objects and events around it (a move's statements go to the
        driver directly too, app/db/fast_sqlite.py).  A job that executes through
        SQLAlchemy starts SQLAlchemy's transaction, which is then closed after the
        driver's commit, with nothing left for it to do."""
        conn = self._conn
        if conn is None:
            conn = self._conn = self.engine.connect()
            self._driver = conn.connection.driver_connection
        driver = self._driver
        try:
            results = [fn(conn, *args) for fn, args, _ in batch]
            started = time.perf_counter()
            driver.commit()
            took = time.perf_counter() - started
            if conn.in_transaction():
                conn.commit()  # SQLAlchemy's side; the driver has nothing left to commit
        except BaseException as exc:
            if _refused_by_lock(exc):
                self._roll_back()  # the connection is sound: keep it, and its cache
            else:
                self._discard()
            raise
        return results, took

    def _roll_back(self) -> None:
        """Undo the batch and keep the connection (the lock refused it: nothing is
        wrong with the connection, and its page cache is worth keeping)."""
        try:
            self._undo()
        except DRIVER_ERRORS:  # the rollback itself failed: start on a fresh connection
            self._discard()

    def _undo(self) -> None:
        if self._conn is not None:
            self._conn.rollback()
        if self._driver is not None:
            self._driver.rollback()  # the driver's transaction, when SQLAlchemy had none

    def _discard(self) -> None:
        """Roll back and drop the connection: the next batch starts on a fresh one."""
        conn = self._conn
        if conn is None:
            return
        try:
            self._undo()
            conn.close()
        except DRIVER_ERRORS:  # a broken connection: nothing more to undo
            conn.invalidate()
        finally:
            self._conn = self._driver = None

    def _hand_over(self, batch: list[Job]) -> None:
        """Send jobs to the writer thread; their futures settle from there."""
        self.stats["handed_over"] += len(batch)
        self._on_thread += 1
        last = batch[-1][2]
        last.add_done_callback(self._thread_done)
        self.writer.submit(batch)

    def _thread_done(self, _future: asyncio.Future[Any]) -> None:
        self._on_thread -= 1

    def close(self) -> None:
        """Hand what is still queued to the thread (which finishes it), then let go."""
        batch, self._pending = self._pending, []
        if batch:
            self._hand_over(batch)
        conn, self._conn = self._conn, None
        self._driver = None
        if conn is not None:
            try:
                conn.close()
            except DRIVER_ERRORS:  # closed from another thread than its own: let it go
                conn.invalidate()
        self.engine.dispose()


def _refused_by_lock(exc: BaseException) -> bool:
    """SQLite said the database is locked (another connection holds the write lock),
    whether the driver raised it or SQLAlchemy wrapped it."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return False
        if isinstance(seen, sqlite3.OperationalError):
            return getattr(seen, "sqlite_errorcode", None) in (
                sqlite3.SQLITE_BUSY,
                sqlite3.SQLITE_LOCKED,
            )
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False
