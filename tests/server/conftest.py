"""Server fixtures: a real server process on SQLite and, where it runs, PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .harness import ServerProcess


@pytest.fixture
def server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    proc = ServerProcess(database_url, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()
