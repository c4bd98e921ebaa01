"""The two statements of every move, run on SQLite's own driver.

Every move commits a version check (``UPDATE rooms ... WHERE seq = :expected``)
and one ``INSERT INTO events``.  Through SQLAlchemy's execution machinery each
costs tens of microseconds of Python (an execution context, parameter
processing, a result object) around the few microseconds SQLite needs; on a
busy server that was the largest part of a move's database time.  Here the
same SQL runs directly on the ``sqlite3`` connection of the transaction, with
the columns' own bind processors, so the stored values are exactly what
SQLAlchemy would have stored (``tests/db/test_fast_sqlite.py`` compares them).

Only the synchronous pysqlite driver of the SQLite writer thread takes this
path; PostgreSQL writes through its async engine as before.  Driver errors are
raised as SQLAlchemy's, so the callers tell conflicts and outages apart the
same way on both paths.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Dialect

from .models import Event, Room, table_of

_EVENT_COLUMNS = (
    "room_id",
    "seq",
    "kind",
    "seat",
    "card",
    "take",
    "client_id",
    "data",
    "created_at",
    "at_ms",
)

Processor = Callable[[Any], Any] | None
_CREATED_AT = _EVENT_COLUMNS.index("created_at")


def _processor(column: Any, dialect: Dialect) -> Processor:
    processor: Processor = column.type.dialect_impl(dialect).bind_processor(dialect)
    return processor


class FastStatements:
    """The version check and the event insert for one SQLite dialect."""

    def __init__(self, dialect: Dialect) -> None:
        rooms, events = table_of(Room), table_of(Event)
        self.move_sql = (
            f"UPDATE {rooms.name} SET seq = ?, status = ?, updated_at = ? "
            f"WHERE {rooms.name}.id = ? AND {rooms.name}.seq = ?"
        )
        self.move_seq_sql = (
            f"UPDATE {rooms.name} SET seq = ?, updated_at = ? "
            f"WHERE {rooms.name}.id = ? AND {rooms.name}.seq = ?"
        )
        """The same when the status stays (``new_status`` None): see room_writes._MOVE_SEQ."""
        self._updated_at = _processor(rooms.c.updated_at, dialect)
        self.insert_sql = (
            f"INSERT INTO {events.name} ({', '.join(_EVENT_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in _EVENT_COLUMNS)})"
        )
        self._event_processors = [_processor(events.c[name], dialect) for name in _EVENT_COLUMNS]
        self._processed = [
            (i, proc) for i, proc in enumerate(self._event_processors) if proc is not None
        ]
        """The columns that have a bind processor (take, data, created_at): only those
        are touched per row."""
        self._last_time: tuple[Any, Any] = (None, None)
        """The last ``now`` and its stored form: a move's version check and its event
        are stamped with the same time, formatted once."""

    def move_version(self, conn: Connection, p: Mapping[str, Any]) -> sqlite3.Cursor:
        """Move the room from ``expected`` to ``new_seq`` (and set ``new_status`` unless
        it is None); the cursor's rowcount is 1 when it was still at ``expected``."""
        now = self._time(p["now"], self._updated_at)
        status = p["new_status"]
        if status is None:
            return _execute(conn, self.move_seq_sql, (p["new_seq"], now, p["room"], p["expected"]))
        params = (p["new_seq"], status, now, p["room"], p["expected"])
        return _execute(conn, self.move_sql, params)

    def insert_event(self, conn: Connection, row: Mapping[str, Any]) -> None:
        params = [row[name] for name in _EVENT_COLUMNS]
        for i, proc in self._processed:
            params[i] = self._time(params[i], proc) if i == _CREATED_AT else proc(params[i])
        _execute(conn, self.insert_sql, tuple(params))

    def _time(self, when: Any, proc: Processor) -> Any:
        if proc is None:
            return when
        last, stored = self._last_time
        if when is not last:
            stored = proc(when)
            self._last_time = (when, stored)
        return stored


def _execute(conn: Connection, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    try:
        return driver.execute(sql, params)
    except sqlite3.Error as exc:
        raise sa_exc.DBAPIError.instance(sql, params, exc, sqlite3.Error) from exc


_CACHE: weakref.WeakKeyDictionary[Dialect, FastStatements] = weakref.WeakKeyDictionary()


def fast_statements(conn: Connection) -> FastStatements | None:
    """The fast statements when ``conn`` is a pysqlite connection, else None."""
    dialect = conn.dialect
    if dialect.name != "sqlite" or dialect.driver != "pysqlite":
        return None
    found = _CACHE.get(dialect)
    if found is None:
        found = _CACHE[dialect] = FastStatements(dialect)
    return found
