"""Server fixtures: a real server process on SQLite and, where it runs, PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import fresh_database

from .harness import ServerProcess


@pytest.fixture
def server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    proc = ServerProcess(database_url, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop_soon()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server with the test settings, and its own fresh database, for all the tests
    of a file on each kind of database.  For files whose tests each make their own
    rooms, players and accounts and read only those (never a count of everything, a
    server-wide limit or a setting of their own): a server's start (imports, the
    migrations of a new database) was a fifth of the suite's time when every test
    started one.  A file opts in with a ``server`` fixture of its own that returns
    ``shared_server``; its tests read the database's address as
    ``server.database_url``."""
    folder = tmp_path_factory.mktemp("shared-server")
    with fresh_database(request.param, folder) as url:
        proc = ServerProcess(url, log_path=folder / "server.log").start()
        try:
            yield proc
        finally:
            proc.stop_soon()
