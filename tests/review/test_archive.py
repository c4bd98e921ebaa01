""" "My games" over correspondence rooms (issue 32), read from real SQLite and
PostgreSQL: each game says its pace, whether the room waits for this player's move
and when that move falls due, and the games where it is the player's turn come first,
the soonest deadline first, however long ago they last changed."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, update

from app.db import history
from app.db.history import HistoryReads
from app.db.migrate import upgrade
from app.db.models import Room, RoomDeadline, Seat, table_of
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.players.players import player_hash
from app.review.archive import Archive
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async

ME = player_hash("k" * 32)
OTHER = player_hash("o" * 32)
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def _room(
    repo: RoomRepository,
    engine: Any,
    letter: str,
    *,
    age_h: int,
    pace: str = "live",
    mover: int | None = None,
    due_ms: int = 0,
    mine: int = 0,
    bot: int | None = None,
) -> None:
    """A 2-player room with seat ``mine`` held by ME and the other by OTHER, last
    changed ``age_h`` hours before T0; in a correspondence room, waiting for ``mover``'s
    move until ``due_ms`` (a ``move`` row, as the rooms write it)."""
    room_id = letter * 32
    await repo.create_room(RoomState(room_id, (letter * 6).upper(), 2, RuleSet(), RoomOptions()))
    async with engine.begin() as conn:
        options = {**RoomOptions().to_dict(), "pace": pace}
        if pace == "correspondence":
            options["days_per_move"] = 3
        await conn.execute(
            update(table_of(Room))
            .where(Room.id == room_id)
            .values(status="playing", options=options, updated_at=T0 - timedelta(hours=age_h))
        )
        for seat in (0, 1):
            await conn.execute(
                update(table_of(Seat))
                .where(Seat.room_id == room_id, Seat.seat == seat)
                .values(
                    name=f"P{seat}",
                    player_hash=None if seat == bot else ME if seat == mine else OTHER,
                    bot=seat == bot,
                )
            )
        if mover is not None:
            await conn.execute(
                insert(table_of(RoomDeadline)).values(
                    room_id=room_id,
                    kind="move",
                    seq=3,
                    seat=mover,
                    due_ms=due_ms,
                    by_bot=mover == bot,  # as the rooms flag a bot's turn
                )
            )
            await conn.execute(  # a warning row of the same room is not a move
                insert(table_of(RoomDeadline)).values(
                    room_id=room_id, kind="warn1", seq=3, seat=mover, due_ms=due_ms - 3_600_000
                )
            )


async def _archive(url: str) -> tuple[Archive, RoomRepository, Any]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    return Archive(HistoryReads(repo)), repo, engine


async def _close(repo: RoomRepository, engine: Any) -> None:
    if repo.writer is not None:
        repo.writer.close()
    await engine.dispose()


def test_my_turn_comes_first_soonest_deadline_first_then_the_rest_newest_first(
    database_url: str,
) -> None:
    async def check() -> None:
        archive, repo, engine = await _archive(database_url)
        day = 86_400_000
        await _room(repo, engine, "a", age_h=1)  # live, the newest
        await _room(repo, engine, "b", age_h=5, pace="correspondence", mover=0, due_ms=9 * day)
        await _room(repo, engine, "c", age_h=90, pace="correspondence", mover=0, due_ms=2 * day)
        # the other player's move, due sooner than either of mine: not my turn
        await _room(repo, engine, "d", age_h=2, pace="correspondence", mover=1, due_ms=day)
        await _room(repo, engine, "e", age_h=3, pace="correspondence")  # waits for nobody
        # I hold seat 1 here, and seat 1 is to move
        await _room(
            repo, engine, "f", age_h=4, pace="correspondence", mover=1, due_ms=5 * day, mine=1
        )
        # a bot's turn, its delay not yet over: no deadline to tell of
        await _room(
            repo, engine, "h", age_h=6, pace="correspondence", mover=1, due_ms=day // 2, bot=1
        )
        games = await archive.games([ME])
        got = [(g["room_id"][0], g["pace"], g["to_move"], g["deadline"], g["seat"]) for g in games]
        assert got == [
            ("c", "correspondence", True, 2 * day, 0),
            ("f", "correspondence", True, 5 * day, 1),
            ("b", "correspondence", True, 9 * day, 0),
            ("a", "live", False, None, 0),
            ("d", "correspondence", False, day, 0),
            ("e", "correspondence", False, None, 0),
            ("h", "correspondence", False, None, 0),
        ]
        # The other player sees the same rooms from the other side.
        theirs = {g["room_id"][0]: g["to_move"] for g in await archive.games([OTHER])}
        assert theirs == {"a": False, "b": False, "c": False, "d": True, "e": False, "f": False}
        assert "h" not in theirs
        assert [g["room_id"][0] for g in await archive.games([OTHER])][0] == "d"
        await _close(repo, engine)

    run_async(check())


def test_a_game_waiting_for_my_move_is_listed_however_old(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        archive, repo, engine = await _archive(database_url)
        monkeypatch.setattr(history, "GAMES_LIMIT", 3)
        for i, letter in enumerate("ghij"):
            await _room(repo, engine, letter, age_h=i + 1)
        await _room(repo, engine, "z", age_h=500, pace="correspondence", mover=0, due_ms=7)
        games = await archive.games([ME])
        assert [g["room_id"][0] for g in games] == ["z", "g", "h"]
        assert games[0]["to_move"] and games[0]["deadline"] == 7
        await _close(repo, engine)

    run_async(check())
