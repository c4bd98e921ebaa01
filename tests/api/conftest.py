"""Operator tests run against real server processes (tests/server/harness.py)."""

from tests.server.conftest import (  # noqa: F401  (the fixtures, on SQLite and PostgreSQL)
    server,
    shared_server,
)
