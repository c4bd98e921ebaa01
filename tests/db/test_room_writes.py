"""The rows the room store's write path leaves on real SQLite and PostgreSQL, read
back with SQL: what the lobby, the admin pages and "My games" read without replaying
the events. Found by mutation testing (docs/testing.md): the replay does not read
these columns, so a wrong value in them went unnoticed."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.db.migrate import upgrade
from app.db.models import DealRow, MatchRow
from app.db.repository import RoomRepository, Written
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, new_seed, shuffled_pack
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import DEAL, MATCH, SEAT
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async


async def _repo(url: str) -> tuple[RoomRepository, object]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    return RoomRepository(make_sessionmaker(engine), make_writer(url)), engine


async def _rows(engine: object, sql: str, **params: object) -> list[tuple]:
    async with engine.connect() as conn:  # type: ignore[attr-defined]
        return [tuple(r) for r in (await conn.execute(text(sql), params)).all()]


def test_a_new_room_is_stored_public_or_not_with_free_seats(database_url: str) -> None:
    """A public room is listed (its ``public`` column, not only its options); a seat
    nobody took has no name, no token and is not a bot (the lobby and the counts of
    bots read that column), the creator's seat has the player's name and token."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        listed = RoomState("a" * 32, "AAAAAA", 3, RuleSet(), RoomOptions(public=True))
        seat = Written(stored_event(1, SEAT, seat=1, data={"name": "Ann"}), token_hash="h1")
        listed.apply(seat.event)
        await repo.create_room(listed, [seat], creator="addr")
        unlisted = RoomState("b" * 32, "BBBBBB", 2, RuleSet(), RoomOptions())
        await repo.create_room(unlisted)

        rooms = await _rows(
            engine, "SELECT id, public, seq, status, created_by FROM rooms ORDER BY id"
        )
        assert [(r[0], bool(r[1]), r[2], r[3], r[4]) for r in rooms] == [
            ("a" * 32, True, 1, "waiting", "addr"),
            ("b" * 32, False, 0, "waiting", None),
        ]
        seats = await _rows(
            engine,
            "SELECT seat, name, bot, token_hash FROM seats WHERE room_id = :r ORDER BY seat",
            r="a" * 32,
        )
        assert [(s[0], s[1], bool(s[2]), s[3]) for s in seats] == [
            (0, None, False, None),
            (1, "Ann", False, "h1"),
            (2, None, False, None),
        ]
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_a_match_and_a_deal_are_stored_as_they_start(database_url: str) -> None:
    """Before any deal of it ends, a match's row has no points, no deal played, is not
    finished and has no winners (its standing in "My games"); a deal's row has the
    dealer, the seed's commitment, the pack it shuffles to and the seq it started at
    (what its record and the replay viewer read), and no scores yet."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = RoomState("a" * 32, "AAAAAA", 3, RuleSet(), RoomOptions())
        await repo.create_room(state)
        seed = new_seed()
        events = [
            stored_event(1, SEAT, seat=0, data={"name": "Ann"}),
            stored_event(2, SEAT, seat=1, data={"name": "Bo"}),
            stored_event(3, SEAT, seat=2, data={"name": "Cy"}),
            stored_event(4, MATCH, data={"match_no": 1, "first_dealer": 2, "players": 3}),
            stored_event(
                5,
                DEAL,
                data={
                    "seed": seed,
                    "match_no": 1,
                    "deal_no": 1,
                    "dealer": 2,
                    "copies": 1,
                    "players": 3,
                },
            ),
        ]
        for ev in events:
            state.apply(ev)
        await repo.commit_events(state.room_id, 0, state.status, [Written(e) for e in events])
        async with repo.sessions() as s:
            match = await s.get(MatchRow, (state.room_id, 1))
            deal = await s.get(DealRow, (state.room_id, 1, 1))
            assert match is not None and deal is not None
            assert (
                match.first_dealer,
                match.cumulative,
                match.deals_played,
                bool(match.finished),
                match.winners,
            ) == (2, [0, 0, 0], 0, False, None)
            assert (deal.dealer, deal.seed, deal.started_seq, deal.scores, deal.totals) == (
                2,
                seed,
                5,
                None,
                None,
            )
            assert deal.commitment == commitment(seed) != seed
            assert deal.pack == shuffled_pack(seed, 1)
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())
