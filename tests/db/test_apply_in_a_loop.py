"""The migrations and the operator's commands run from a thread that already runs an
event loop: a test worker whose browser tests keep Playwright's loop running (fresh-
clone runs failed so twice, by the order their tests happened to run in: the
migrations, then in session 33 the schema's state read before a migration), or an
application migrating from async code.  ``asyncio.run`` refuses to start inside a
running loop, so app/core/blocking.py gives the async engine a thread of its own
there."""

from __future__ import annotations

from pathlib import Path

from app.db.backup import backup_database, restore_database
from app.db.migrate import read_state, upgrade
from app.db.revisions import apply, head_revision
from tests.conftest import run_async
from tests.server.harness import sql


def test_migrations_apply_from_inside_a_running_event_loop(database_url: str) -> None:
    async def inside_a_loop() -> None:
        apply(database_url, "head")

    run_async(inside_a_loop())  # a loop of its own, in a thread (the worker's may run one)
    assert sql(database_url, "SELECT version_num FROM alembic_version") == [(head_revision(),)]


def test_the_operators_commands_run_from_inside_a_running_event_loop(
    database_url: str, tmp_path: Path
) -> None:
    """``krypkasino migrate``, ``backup`` and ``restore --force`` as functions, called
    where a loop runs: each does its work and says what it did."""
    copy = tmp_path / ("backup.tar.gz" if database_url.startswith("postgresql") else "copy.db")

    async def inside_a_loop() -> tuple[str | None, dict[str, int], dict[str, int]]:
        upgrade(database_url, backup_dir=tmp_path)
        made = backup_database(database_url, copy)
        restored = restore_database(database_url, copy, force=True)
        return read_state(database_url).current, made.rows, restored.rows

    revision, rows_out, rows_in = run_async(inside_a_loop())
    assert revision == head_revision()
    assert rows_out == rows_in and len(rows_out) > 10
