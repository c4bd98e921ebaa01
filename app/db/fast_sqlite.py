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
_PROCESSED = ("take", "data", "created_at")
"""The event columns with a bind processor on SQLite: two JSON, one DATETIME."""
_TAKES_KEPT = 4096
"""How many distinct ``take`` lists keep their JSON text (a few hundred occur)."""


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
        processors = {name: _processor(events.c[name], dialect) for name in _EVENT_COLUMNS}
        with_one = tuple(name for name, proc in processors.items() if proc is not None)
        if with_one != _PROCESSED:  # insert_event converts exactly these three
            raise RuntimeError(f"events columns with a bind processor changed: {with_one}")
        self._take = processors["take"]
        self._data = processors["data"]
        self._created_at = processors["created_at"]
        self._empty_data = self._json(self._data, {})
        self._takes: dict[tuple[str, ...], Any] = {}
        """The JSON text of each ``take`` list seen: a move's takes are a few cards out
        of a pack, and the same lists come back all the time."""
        self._last_time: tuple[Any, Any] = (None, None)
        """The last ``now`` and its stored form: a move's version check and its event
        are stamped with the same time, formatted once."""

    def move_version(self, driver: sqlite3.Connection, p: Mapping[str, Any]) -> sqlite3.Cursor:
        """Move the room from ``expected`` to ``new_seq`` (and set ``new_status`` unless
        it is None); the cursor's rowcount is 1 when it was still at ``expected``.
        ``driver`` is the ``sqlite3`` connection of the transaction (``driver_of``)."""
        now = self._time(p["now"], self._updated_at)
        status = p["new_status"]
        if status is None:
            params: tuple[Any, ...] = (p["new_seq"], now, p["room"], p["expected"])
            return _execute(driver, self.move_seq_sql, params)
        params = (p["new_seq"], status, now, p["room"], p["expected"])
        return _execute(driver, self.move_sql, params)

    def insert_event(self, driver: sqlite3.Connection, row: Mapping[str, Any]) -> None:
        take = row["take"]
        if type(take) is list and len(take) < 8:
            key = tuple(take)
            stored_take = self._takes.get(key)
            if stored_take is None:
                if len(self._takes) >= _TAKES_KEPT:
                    self._takes.clear()
                stored_take = self._takes[key] = self._json(self._take, take)
        else:
            stored_take = self._json(self._take, take)
        data = row["data"]
        stored_data = self._empty_data if data == {} else self._json(self._data, data)
        params = (
            row["room_id"],
            row["seq"],
            row["kind"],
            row["seat"],
            row["card"],
            stored_take,
            row["client_id"],
            stored_data,
            self._time(row["created_at"], self._created_at),
            row["at_ms"],
        )
        _execute(driver, self.insert_sql, params)

    @staticmethod
    def _json(proc: Processor, value: Any) -> Any:
        return proc(value) if proc is not None else value

    def _time(self, when: Any, proc: Processor) -> Any:
        if proc is None:
            return when
        last, stored = self._last_time
        if when is not last:
            stored = proc(when)
            self._last_time = (when, stored)
        return stored


def _execute(driver: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
    try:
        return driver.execute(sql, params)
    except sqlite3.Error as exc:
        raise sa_exc.DBAPIError.instance(sql, params, exc, sqlite3.Error) from exc


def driver_of(conn: Connection) -> sqlite3.Connection:
    """The ``sqlite3`` connection under a SQLAlchemy connection on pysqlite."""
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


_CACHE: weakref.WeakKeyDictionary[Dialect, FastStatements] = weakref.WeakKeyDictionary()
_last: tuple[Dialect | None, FastStatements | None] = (None, None)
"""The dialect asked for last and its statements: every move asks for the same one,
and a weak dictionary's lookup makes a weak reference each time."""


def fast_statements(conn: Connection) -> FastStatements | None:
    """The fast statements when ``conn`` is a pysqlite connection, else None."""
    global _last
    dialect = conn.dialect
    last_dialect, found = _last
    if dialect is last_dialect:
        return found
    if dialect.name != "sqlite" or dialect.driver != "pysqlite":
        return None
    found = _CACHE.get(dialect)
    if found is None:
        found = _CACHE[dialect] = FastStatements(dialect)
    _last = (dialect, found)
    return found
