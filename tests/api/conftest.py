"""Operator tests run against real server processes (tests/server/harness.py)."""

from tests.server.conftest import server  # noqa: F401  (the fixture, on SQLite and PostgreSQL)
