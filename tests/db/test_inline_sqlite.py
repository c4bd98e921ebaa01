"""A move's transaction on the loop's own thread (app/db/inline_sqlite.py): one commit
per tick, never waiting for the lock or the disk on the loop, in order whatever path
a write took."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from app.db import inline_sqlite, session
from app.db.session import SqliteWriter
from tests.conftest import run_async


def _writer(tmp_path: Path) -> SqliteWriter:
    writer = SqliteWriter(f"sqlite+aiosqlite:///{tmp_path}/w.db")

    async def create() -> None:
        await writer.run(
            lambda c: c.execute(
                text("CREATE TABLE t (n INTEGER PRIMARY KEY AUTOINCREMENT, a INTEGER UNIQUE, who)")
            )
        )

    run_async(create())
    return writer


def insert(conn, value: int) -> int:  # type: ignore[no-untyped-def]
    """Insert ``value`` with the thread that ran it; the value back."""
    conn.execute(
        text("INSERT INTO t (a, who) VALUES (:a, :who)"), {"a": value, "who": threading.get_ident()}
    )
    return value


def rows(path: Path) -> list[tuple[int, int]]:
    """(a, thread) in the order they were inserted."""
    with sqlite3.connect(path / "w.db") as db:
        return [(a, who) for a, who in db.execute("SELECT a, who FROM t ORDER BY n")]


def test_the_writes_of_one_tick_commit_together_on_the_loops_thread(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    assert writer.loop_writes is not None

    async def scenario() -> tuple[list[int], int]:
        done = await asyncio.gather(*(writer.run_soon(insert, i) for i in range(20)))
        return list(done), threading.get_ident()

    try:
        results, here = run_async(scenario())
        stats = dict(writer.loop_writes.stats)
    finally:
        writer.close()
    assert results == list(range(20))
    assert rows(tmp_path) == [(i, here) for i in range(20)], "in order, on this thread"
    assert stats["loop_commits"] == 1 and stats["loop_jobs"] == 20
    assert stats["handed_over"] == 0


def test_a_failing_write_fails_alone_and_the_others_of_its_tick_commit(tmp_path: Path) -> None:
    writer = _writer(tmp_path)

    def insert_then_fail(conn, value: int) -> None:  # type: ignore[no-untyped-def]
        insert(conn, value)
        raise ValueError("refused after writing")

    async def scenario() -> list[object]:
        return list(
            await asyncio.gather(
                writer.run_soon(insert, 1),
                writer.run_soon(insert_then_fail, 2),
                writer.run_soon(insert, 3),
                writer.run_soon(insert, 1),  # a duplicate key
                writer.run_soon(insert, 4),
                return_exceptions=True,
            )
        )

    try:
        results = run_async(scenario())
    finally:
        writer.close()
    assert results[0] == 1 and results[2] == 3 and results[4] == 4
    assert isinstance(results[1], ValueError)
    assert isinstance(results[3], IntegrityError)
    assert [a for a, _ in rows(tmp_path)] == [1, 3, 4], "the failed ones left nothing"


def test_a_locked_database_sends_writes_to_the_thread_in_order_and_the_loop_runs_on(
    tmp_path: Path,
) -> None:
    """Another process (an operator's command) holds SQLite's write lock: the loop
    does not wait for it; the writes wait on the writer thread, keep their order
    (a later one follows the earlier to the thread), and land once it is released."""
    writer = _writer(tmp_path)
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    released_at: list[float] = []

    async def scenario() -> tuple[list[int], float, float, int]:
        first = asyncio.ensure_future(writer.run_soon(insert, 1))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(writer.run_soon(insert, 2))
        longest = 0.0  # the longest the loop was away; a loop waiting on the lock: 0.5 s
        started = last = time.monotonic()
        while last - started < 0.5:  # the loop is free while the lock is held
            await asyncio.sleep(0.01)
            now = time.monotonic()
            longest, last = max(longest, now - last), now
        assert not first.done() and not second.done(), "nothing is stored before the lock"
        other.execute("COMMIT")
        released_at.append(time.monotonic())
        done = await asyncio.gather(first, second)
        return list(done), longest, time.monotonic(), threading.get_ident()

    try:
        results, longest, finished, here = run_async(scenario())
        stats = dict(writer.loop_writes.stats) if writer.loop_writes else {}
    finally:
        writer.close()
        other.close()
    assert results == [1, 2]
    # a busy machine delays a 10 ms sleep by tens of ms, never by the lock's 0.5 s
    assert longest < 0.25, "the loop kept running while the lock was held"
    stored = rows(tmp_path)
    assert [a for a, _ in stored] == [1, 2], "in the order they were asked for"
    assert all(who != here for _, who in stored), "both waited on the writer thread"
    assert stats["handed_over"] == 2
    assert finished - released_at[0] < 2.0


def test_after_the_thread_is_done_writes_come_back_to_the_loop(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")

    async def scenario() -> int:
        first = asyncio.ensure_future(writer.run_soon(insert, 1))
        await asyncio.sleep(0.05)
        other.execute("COMMIT")
        await first
        await asyncio.sleep(0)  # the thread's batch is settled: its callbacks run
        await writer.run_soon(insert, 2)
        return threading.get_ident()

    try:
        here = run_async(scenario())
    finally:
        writer.close()
        other.close()
    (one, thread), (two, loop) = rows(tmp_path)
    assert (one, two) == (1, 2) and thread != here and loop == here


def test_a_refusal_by_the_lock_keeps_the_loops_connection(tmp_path: Path) -> None:
    """Finding the lock taken is no fault of the loop's connection: it is rolled back
    and kept (with its page cache), not closed and opened again."""
    writer = _writer(tmp_path)
    loop_writes = writer.loop_writes
    assert loop_writes is not None
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None, check_same_thread=False)

    async def scenario() -> tuple[object, object]:
        await writer.run_soon(insert, 1)
        before = loop_writes._conn
        other.execute("BEGIN IMMEDIATE")
        refused = asyncio.ensure_future(writer.run_soon(insert, 2))
        await asyncio.sleep(0.05)
        other.execute("COMMIT")
        await refused
        await asyncio.sleep(0)
        await writer.run_soon(insert, 3)
        return before, loop_writes._conn

    try:
        before, after = run_async(scenario())
        stats = dict(loop_writes.stats)
    finally:
        writer.close()
        other.close()
    assert [a for a, _ in rows(tmp_path)] == [1, 2, 3]
    assert stats["handed_over"] == 1, "the refused batch went to the thread"
    assert before is not None and after is before, "the same connection throughout"


def test_the_loop_waits_out_the_threads_own_restart_instead_of_handing_over(
    tmp_path: Path,
) -> None:
    """While the writer thread's RESTART checkpoint holds the lock (``restarting``), the
    loop keeps its writes and commits them itself once it is over: handed to the
    thread they would wait just as long, and their commit from another connection
    would empty the loop connection's page cache."""
    writer = _writer(tmp_path)
    loop_writes = writer.loop_writes
    assert loop_writes is not None

    async def scenario() -> tuple[bool, int]:
        writer.restarting = True
        first = asyncio.ensure_future(writer.run_soon(insert, 1))
        second = asyncio.ensure_future(writer.run_soon(insert, 2))
        await asyncio.sleep(0.05)
        waited = not first.done() and not second.done()
        writer.restarting = False
        assert await asyncio.gather(first, second) == [1, 2]
        return waited, threading.get_ident()

    try:
        waited, here = run_async(scenario())
        stats = dict(loop_writes.stats)
    finally:
        writer.close()
    assert waited, "nothing was committed while the restart held the lock"
    stored = rows(tmp_path)
    assert [a for a, _ in stored] == [1, 2]
    assert all(who == here for _, who in stored), "committed on the loop's own thread"
    assert stats["handed_over"] == 0 and stats["loop_commits"] == 1


def test_a_slow_commit_sends_the_next_writes_to_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that takes long to write must not stall every room: after a commit on
    the loop took longer than SLOW_COMMIT_SECONDS, writes go to the thread for a while.
    (Here every commit counts as slow.)"""
    monkeypatch.setattr(inline_sqlite, "SLOW_COMMIT_SECONDS", 0.0)
    writer = _writer(tmp_path)

    async def scenario() -> int:
        await writer.run_soon(insert, 1)
        await writer.run_soon(insert, 2)
        return threading.get_ident()

    try:
        here = run_async(scenario())
        stats = dict(writer.loop_writes.stats) if writer.loop_writes else {}
    finally:
        writer.close()
    (_, first), (_, second) = rows(tmp_path)
    assert first == here and second != here
    assert stats["slow"] == 1 and stats["handed_over"] == 1


def test_checkpoints_keep_the_wal_from_growing(tmp_path: Path) -> None:
    """The loop's connection never checkpoints; the writer thread does, every
    CHECKPOINT_EVERY commits, so the WAL is reused instead of growing with every move."""
    writer = _writer(tmp_path)
    commits = 10 * inline_sqlite.CHECKPOINT_EVERY
    wal_sizes: list[int] = []

    async def scenario() -> None:
        for i in range(commits):
            await writer.run_soon(insert, i)
            if i % 100 == 0:
                await asyncio.sleep(0.001)  # let the thread's checkpoint run
                wal_sizes.append(os.path.getsize(tmp_path / "w.db-wal"))

    try:
        run_async(scenario())
    finally:
        writer.close()
    assert len(rows(tmp_path)) == commits
    # Each commit writes about two pages here: without checkpoints the WAL would
    # hold 2 x 2,000 pages (16 MB) by the end; with passive checkpoints alone, as the
    # loop writes on while they run, it grew to 24 MB.
    assert max(wal_sizes) < 2 * session.WAL_RESTART_BYTES
