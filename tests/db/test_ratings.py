"""Ratings in SQL (app/db/ratings.py) on real SQLite and PostgreSQL: a match is rated
once however many times, and by however many processes, it is reported; the
leaderboard's order (mu - 3 sigma, best first) and who it lists (enough rated matches
at that player count, accounts not deleted)."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

from app.db.accounts import AccountRows
from app.db.migrate import upgrade
from app.db.ratings import RatingRows
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.ratings.model import NEW, Skill
from app.ratings.ratings import RatedMatch, RatedSeat, seat_changes
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async
from tests.server.process import sql


class Db:
    """A repository on the test database (several are several processes' views)."""

    def __init__(self, url: str, stack: AsyncExitStack) -> None:
        self.url, self.stack = url, stack

    async def open(self) -> RoomRepository:
        engine = make_engine(self.url)
        repo = RoomRepository(make_sessionmaker(engine), make_writer(self.url))
        self.stack.push_async_callback(engine.dispose)
        if repo.writer is not None:
            self.stack.callback(repo.writer.close)
        return repo


async def _accounts(repo: RoomRepository, *names: str) -> list[str]:
    rows = AccountRows(repo)
    for name in names:
        await rows.create_account(f"{name:0<32}", name, name.lower(), None, 1)
    return [f"{name:0<32}" for name in names]


async def _room(repo: RoomRepository, n: int, players: int = 2) -> str:
    state = RoomState(f"{n:x}".rjust(32, "0"), f"R{n:05d}", players, RuleSet(), RoomOptions())
    await repo.create_room(state, [])
    return state.room_id


def _match(room_id: str, *seats: tuple[str | None, int], players: int = 2) -> RatedMatch:
    """A rated match: (account id or None for a random bot, total) per seat."""
    return RatedMatch(
        room_id,
        1,
        players,
        1_000,
        tuple(
            RatedSeat(i, acct, None if acct else "random", False, total)
            for i, (acct, total) in enumerate(seats)
        ),
    )


async def _record(store: RatingRows, match: RatedMatch) -> bool:
    return await store.record(match, lambda current: seat_changes(match, current))


def _run(url: str, test: Any) -> None:
    async def run() -> None:
        await asyncio.to_thread(upgrade, url)
        async with AsyncExitStack() as stack:
            await test(Db(url, stack))

    run_async(run())


def test_a_match_reported_twice_is_rated_once(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        ann, bo = await _accounts(repo, "ann", "bo")
        store = RatingRows(repo)
        match = _match(await _room(repo, 1), (ann, 5), (bo, 16))
        assert await _record(store, match)
        assert not await _record(store, match)
        [mine] = await store.ratings_of(ann)
        assert mine.matches == 1 and mine.skill.mu > NEW.mu
        [theirs] = await store.ratings_of(bo)
        assert theirs.matches == 1 and theirs.skill.mu < NEW.mu

    _run(database_url, test)


def test_two_processes_rating_one_match_at_once_rate_it_once(database_url: str) -> None:
    async def test(db: Db) -> None:
        first, second = await db.open(), await db.open()
        ann, bo = await _accounts(first, "ann", "bo")
        match = _match(await _room(first, 1), (ann, 5), (bo, 16))
        done = await asyncio.gather(
            _record(RatingRows(first), match), _record(RatingRows(second), match)
        )
        assert sorted(done) == [False, True]
        [mine] = await RatingRows(first).ratings_of(ann)
        assert mine.matches == 1
        rows = sql(db.url, "SELECT count(*) FROM rating_results")
        assert rows[0][0] == 2

    _run(database_url, test)


def test_one_account_rated_by_two_matches_at_once_counts_both(database_url: str) -> None:
    """Two matches of one player ending together on two processes: neither update is lost
    (the rating row is read for update; a lost race on a new row is tried again)."""

    async def test(db: Db) -> None:
        first, second = await db.open(), await db.open()
        ann, bo, cy = await _accounts(first, "ann", "bo", "cy")
        one = _match(await _room(first, 1), (ann, 5), (bo, 16))
        two = _match(await _room(first, 2), (ann, 3), (cy, 18))
        done = await asyncio.gather(
            _record(RatingRows(first), one), _record(RatingRows(second), two)
        )
        assert done == [True, True]
        [mine] = await RatingRows(first).ratings_of(ann)
        assert mine.matches == 2

    _run(database_url, test)


def test_a_bot_keeps_its_anchor_and_gets_no_rating_row(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        [ann] = await _accounts(repo, "ann")
        assert await _record(RatingRows(repo), _match(await _room(repo, 1), (ann, 20), (None, 1)))
        rows = sql(
            db.url,
            "SELECT bot_level, mu_before, mu_after FROM rating_results WHERE account_id IS NULL",
        )
        assert [tuple(r) for r in rows] == [("random", 15.0, 15.0)]
        assert sql(db.url, "SELECT count(*) FROM ratings")[0][0] == 1

    _run(database_url, test)


def test_the_leaderboard_ranks_by_the_cautious_rating_and_filters(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        ann, bo, cy, di = await _accounts(repo, "ann", "bo", "cy", "di")
        store = RatingRows(repo)
        n = 0
        for winner, loser, times in ((ann, bo, 3), (cy, bo, 2), (di, ann, 1)):
            for _ in range(times):
                n += 1
                assert await _record(store, _match(await _room(repo, n), (winner, 1), (loser, 20)))
        three = _match(await _room(repo, 99, 3), (ann, 1), (bo, 10), (cy, 31), players=3)
        assert await _record(store, three)

        board = await store.leaderboard(2, 1, 100)
        names = [r.username for r in board]
        assert sorted(names) == ["ann", "bo", "cy", "di"]
        ordinals = [r.skill.ordinal for r in board]
        assert ordinals == sorted(ordinals, reverse=True)
        assert names[0] == "ann" and names[-1] == "bo"
        by_name = {r.username: r.matches for r in board}
        assert by_name == {"ann": 4, "bo": 5, "cy": 2, "di": 1}

        assert [r.username for r in await store.leaderboard(2, 3, 100)] == ["ann", "bo"]
        assert [r.username for r in await store.leaderboard(2, 1, 2)] == names[:2]
        assert [r.username for r in await store.leaderboard(3, 1, 100)] == ["ann", "bo", "cy"]
        assert await store.leaderboard(4, 1, 100) == []

        await AccountRows(repo).delete_account(ann, 2, "deleted player")
        assert "ann" not in [r.username for r in await store.leaderboard(2, 1, 100)]

    _run(database_url, test)


def test_a_skill_written_is_read_back_exactly(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        [ann] = await _accounts(repo, "ann")
        match = _match(await _room(repo, 1), (ann, 4), (None, 17))
        changes = seat_changes(match, {})
        assert await _record(RatingRows(repo), match)
        [mine] = await RatingRows(repo).ratings_of(ann)
        assert mine.skill == Skill(changes[0].after.mu, changes[0].after.sigma)

    _run(database_url, test)
