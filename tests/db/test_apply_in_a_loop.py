"""The migrations run from a thread that already runs an event loop: a test worker
whose browser tests keep Playwright's loop running (a fresh-clone CI run failed so,
by the order its tests happened to run in), or an application migrating from async
code.  ``asyncio.run`` refuses to start inside a running loop, so migrations/env.py
gives the async engine a thread of its own there."""

from __future__ import annotations

from app.db.revisions import apply, head_revision
from tests.conftest import run_async
from tests.server.harness import sql


def test_migrations_apply_from_inside_a_running_event_loop(database_url: str) -> None:
    async def inside_a_loop() -> None:
        apply(database_url, "head")

    run_async(inside_a_loop())  # a loop of its own, in a thread (the worker's may run one)
    assert sql(database_url, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
