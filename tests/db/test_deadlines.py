"""``room_deadlines`` read on real SQLite and PostgreSQL (app/db/deadlines.py): rows
of a room, the rooms that wait for a player's seats, what is due, and the rows going
with their room."""

from __future__ import annotations

from sqlalchemy import delete, insert

from app.db.deadlines import MOVE, WARN_1, DeadlineReads, DeadlineRow
from app.db.models import Room, RoomDeadline, table_of
from app.players.players import player_hash
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room


def test_rows_are_read_by_room_by_player_and_by_due_time(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            reads = DeadlineReads(repo.sessions)
            assert await reads.of_room(room) == []
            assert await reads.next_due() is None
            async with repo.sessions.begin() as s:
                await s.execute(
                    insert(table_of(RoomDeadline)),
                    [
                        {"room_id": room, "kind": MOVE, "seq": 2, "seat": 1, "due_ms": 5_000},
                        {"room_id": room, "kind": WARN_1, "seq": 2, "seat": 1, "due_ms": 4_000},
                    ],
                )
            move = DeadlineRow(room, MOVE, 2, 1, 5_000)
            warn = DeadlineRow(room, WARN_1, 2, 1, 4_000)
            assert await reads.of_room(room) == [warn, move]
            assert await reads.waiting_for([player_hash(BO)]) == [move]
            assert await reads.waiting_for([player_hash(ANN)]) == []
            assert await reads.waiting_for() == []
            assert await reads.due(3_999) == []
            assert await reads.due(4_500) == [warn]
            assert await reads.next_due() == 4_000
            async with repo.sessions.begin() as s:
                await s.execute(delete(table_of(Room)).where(Room.id == room))
            assert await reads.of_room(room) == []

    run_async(check())


def test_a_bot_standing_in_for_a_person_is_nobodys_turn(database_url: str) -> None:
    """A person's seat a bot plays for (three missed moves, or a bot seat) has a ``move``
    row flagged ``by_bot``: the room is not waiting for that person, so neither "My
    games" nor the digest may say it is their turn."""

    async def check() -> None:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            reads = DeadlineReads(repo.sessions)
            async with repo.sessions.begin() as s:
                await s.execute(
                    insert(table_of(RoomDeadline)),
                    [
                        {
                            "room_id": room,
                            "kind": MOVE,
                            "seq": 2,
                            "seat": 1,
                            "due_ms": 5_000,
                            "by_bot": True,
                        },
                    ],
                )
            assert await reads.waiting_for([player_hash(BO)]) == []
            assert [r.seat for r in await reads.of_room(room)] == [1]  # the poller still fires it

    run_async(check())
