"""The rows of the ratings' guards (issue 46, app/db/ratings.py) on real SQLite and
PostgreSQL: sightings upserted (the latest time kept), two accounts linked by a shared
address or player key within the window and not before it, old sightings dropped; the
seats a rating ignored written with the match and read back with its result."""

from __future__ import annotations

from app.db.ratings import RatingRows
from app.ratings.guards import ADDRESS, KEY, SHARED
from app.ratings.model import NEW
from app.ratings.ratings import seat_changes

from .test_ratings import Db, _accounts, _match, _room, _run


def test_sightings_link_accounts_within_the_window(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        ann, annex, cy, dan = await _accounts(repo, "ann", "annex", "cy", "dan")
        store = RatingRows(repo)
        await store.sighted(ann, ADDRESS, "home", 1_000)
        await store.sighted(ann, ADDRESS, "home", 500)  # an older write keeps the later time
        await store.sighted(annex, ADDRESS, "home", 2_000)
        await store.sighted(cy, ADDRESS, "cafe", 2_000)
        await store.sighted(cy, KEY, "browser", 3_000)
        await store.sighted(dan, KEY, "browser", 3_000)
        everyone = [ann, annex, cy, dan]
        assert await store.linked(everyone, 0) == {frozenset({ann, annex}), frozenset({cy, dan})}
        assert await store.linked(everyone, 1_500) == {frozenset({cy, dan})}, "Ann's too old"
        assert await store.linked([ann, cy], 0) == set()
        assert await store.forget_sightings(2_500) == 3
        assert await store.linked(everyone, 0) == {frozenset({cy, dan})}

    _run(database_url, test)


def test_the_seats_a_rating_ignored_are_kept_with_its_result(database_url: str) -> None:
    async def test(db: Db) -> None:
        repo = await db.open()
        ann, annex = await _accounts(repo, "ann", "annex")
        store = RatingRows(repo)
        match = _match(await _room(repo, 1), (ann, 5), (annex, 16))
        linked = {frozenset({ann, annex})}
        assert await store.record(match, lambda current: seat_changes(match, current, linked))
        found = await store.match_result(match.room_id, 1)
        assert found is not None and not found.void and found.players == 2
        assert [(c.seat, c.rank, c.apart) for c in found.seats] == [
            (0, 0, ((1, SHARED),)),
            (1, 1, ((0, SHARED),)),
        ]
        assert all(c.before == c.after == NEW for c in found.seats)
        [mine] = await store.ratings_of(ann)
        assert mine.matches == 1 and mine.skill == NEW
        assert await store.match_result(match.room_id, 2) is None

    _run(database_url, test)
