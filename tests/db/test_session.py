"""The SQLite writer: transactions committed together, each failing alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from app.db.session import SqliteWriter
from tests.conftest import run_async


def test_grouped_transactions_fail_alone_and_commit_together(tmp_path) -> None:  # type: ignore[no-untyped-def]
    writer = SqliteWriter(f"sqlite+aiosqlite:///{tmp_path}/w.db")

    def insert(conn, value: int) -> int:  # type: ignore[no-untyped-def]
        conn.execute(text("INSERT INTO t VALUES (:a)"), {"a": value})
        return value

    def insert_then_fail(conn, value: int) -> None:  # type: ignore[no-untyped-def]
        insert(conn, value)
        raise ValueError("refused after writing")

    async def scenario() -> tuple[list, list]:
        await writer.run(lambda c: c.execute(text("CREATE TABLE t (a INTEGER PRIMARY KEY)")))
        results = await asyncio.gather(
            writer.run(insert, 1),
            writer.run(insert_then_fail, 2),
            writer.run(insert, 3),
            writer.run(insert, 1),
            *(writer.run(insert, i) for i in range(10, 60)),
            return_exceptions=True,
        )
        rows = await writer.run(
            lambda c: c.execute(text("SELECT a FROM t ORDER BY a")).scalars().all()
        )
        return results, rows

    try:
        results, rows = run_async(scenario())
    finally:
        writer.close()
    assert results[:3] == [1, results[1], 3] and isinstance(results[1], ValueError)
    assert isinstance(results[3], IntegrityError), "a duplicate key fails alone"
    assert results[4:] == list(range(10, 60))
    assert rows == [1, 3] + list(range(10, 60)), "the failed jobs left nothing behind"


def test_connections_opening_a_new_file_at_once_all_get_it_in_wal_mode(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Four connections (two processes' writers and readers, say) open a file not yet in
    WAL mode at the same moment: every one gets its settings, none "database is locked"
    (before, one run in seven failed one of them; a fresh CI run caught it)."""
    import sqlite3
    import threading

    from app.db.session import _sqlite_pragmas

    failures: list[BaseException] = []
    for trial in range(60):
        path = tmp_path / f"new{trial}.db"
        sqlite3.connect(path).execute("CREATE TABLE t (a INTEGER)").connection.close()
        start = threading.Barrier(4)
        modes: list[str] = []

        def open_one(path: Path, start: threading.Barrier, modes: list[str]) -> None:
            conn = sqlite3.connect(path, check_same_thread=False)
            start.wait()
            try:
                _sqlite_pragmas(conn, None)
                modes.append(conn.execute("PRAGMA journal_mode").fetchone()[0])
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                failures.append(exc)
            finally:
                conn.close()

        threads = [threading.Thread(target=open_one, args=(path, start, modes)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures, (trial, failures)
        assert modes == ["wal"] * 4, (trial, modes)
