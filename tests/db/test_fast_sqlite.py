"""The SQLite fast path stores exactly what SQLAlchemy's statements store."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, insert
from sqlalchemy.exc import IntegrityError

from app.db.fast_sqlite import driver_of, fast_statements
from app.db.migrate import upgrade
from app.db.models import Room, table_of
from app.db.room_writes import _INSERT_EVENT, _MOVE_SEQ, _MOVE_VERSION

WHEN = datetime(2026, 12, 1, 0, 30, 5, 123456, tzinfo=UTC)

EVENTS = [
    {"seq": 1, "kind": "seat", "seat": 0, "card": None, "take": None, "client_id": None,
     "data": {"name": "Åsa \"ü\""}, "at_ms": None},
    {"seq": 2, "kind": "play", "seat": 1, "card": "7H", "take": ["2C", "5D"],
     "client_id": "1:abc", "data": {}, "at_ms": 1764549005123},
    {"seq": 3, "kind": "play", "seat": 0, "card": "KS", "take": [], "client_id": "srv:clock:3",
     "data": {"by": "srv:clock"}, "at_ms": 0},
    {"seq": 4, "kind": "play", "seat": 1, "card": "3H", "take": ["2C", "5D"],
     "client_id": "1:abd", "data": {}, "at_ms": 1764549006000},  # the take's text kept
]  # fmt: skip


@pytest.fixture
def engine(tmp_path):  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path}/fast.db"
    with ThreadPoolExecutor(1) as pool:  # migrations run their own event loop
        pool.submit(upgrade, url.replace("sqlite://", "sqlite+aiosqlite://")).result()
    eng = create_engine(url)
    with eng.begin() as conn:
        for room in ("fast", "core"):
            conn.execute(
                insert(table_of(Room)).values(
                    id=room, code=room, players=2, rules={}, options={}, status="waiting",
                    seq=0, created_at=WHEN, updated_at=WHEN,
                )
            )  # fmt: skip
    yield eng
    eng.dispose()


def _rows(eng, sql: str, room: str) -> list[tuple]:  # type: ignore[no-untyped-def]
    with eng.connect() as conn:
        raw = conn.connection.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        return [tuple(r) for r in raw.execute(sql, (room,)).fetchall()]


def test_events_and_versions_are_stored_byte_for_byte_alike(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as conn:
        fast = fast_statements(conn)
        assert fast is not None, "pysqlite takes the fast path"
        for n, ev in enumerate(EVENTS):
            status = "playing" if n < 2 else None  # None: the status stays (_MOVE_SEQ)
            version = {"expected": n, "new_seq": n + 1, "new_status": status, "now": WHEN}
            core = _MOVE_VERSION if status else _MOVE_SEQ
            assert fast.move_version(driver_of(conn), {**version, "room": "fast"}).rowcount == 1
            assert conn.execute(core, {**version, "room": "core"}).rowcount == 1
            fast.insert_event(driver_of(conn), {**ev, "room_id": "fast", "created_at": WHEN})
            conn.execute(_INSERT_EVENT, {**ev, "room_id": "core", "created_at": WHEN})
    events = (
        "SELECT seq, kind, seat, card, take, client_id, data, created_at, at_ms, typeof(take),"
        " typeof(data), typeof(at_ms) FROM events WHERE room_id = ? ORDER BY seq"
    )
    assert _rows(engine, events, "fast") == _rows(engine, events, "core")
    assert len(_rows(engine, events, "fast")) == 4
    rooms = "SELECT seq, status, updated_at, typeof(updated_at) FROM rooms WHERE id = ?"
    assert _rows(engine, rooms, "fast") == _rows(engine, rooms, "core") != []
    assert _rows(engine, rooms, "fast")[0][:2] == (4, "playing"), "the status stayed"


def test_a_stale_version_moves_nothing(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as conn:
        fast = fast_statements(conn)
        assert fast is not None
        params = {"room": "fast", "expected": 7, "new_seq": 8, "new_status": "x", "now": WHEN}
        assert fast.move_version(driver_of(conn), params).rowcount == 0
    assert _rows(engine, "SELECT seq, status FROM rooms WHERE id = ?", "fast") == [(0, "waiting")]


def test_driver_errors_are_raised_as_sqlalchemy_errors(engine) -> None:  # type: ignore[no-untyped-def]
    row = {**EVENTS[1], "room_id": "fast", "created_at": WHEN}
    with engine.begin() as conn:
        fast = fast_statements(conn)
        assert fast is not None
        fast.insert_event(driver_of(conn), row)
        with pytest.raises(IntegrityError):  # the same (room, seq) again
            fast.insert_event(driver_of(conn), row)


def test_other_drivers_take_the_ordinary_path(tmp_path) -> None:  # type: ignore[no-untyped-def]
    eng = create_engine(f"sqlite:///{tmp_path}/x.db")
    with eng.connect() as conn:
        assert fast_statements(conn) is not None
    from sqlalchemy.dialects import postgresql

    class NotSqlite:
        dialect = postgresql.dialect()

    assert fast_statements(NotSqlite()) is None  # type: ignore[arg-type]
    eng.dispose()
