"""The SQLite writer: transactions committed together, each failing alone."""

from __future__ import annotations

import asyncio

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
