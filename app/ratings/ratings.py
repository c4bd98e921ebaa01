"""Rating each rated match exactly once, and the leaderboard.

Every finished match reaches ``Ratings.on_match_end`` through the outbox (the
``match_ended`` domain event, stored with the match's last play and handed over
by whichever process claims it first: app/subscribers.py).  A rated match becomes
one ``record`` in the store: one
transaction that first inserts the match's row (unique on room and match), then
reads the players' ratings, rates, and writes them.  A second attempt (the same
match reported again, another server process catching up) fails on that row and
changes nothing, so each match counts once however many processes see it.  Matches
that ended before the outbox existed (a database older than migration 0020) are found
by ``catch_up``, which every process runs at start and then now and again.

Accounts seen at one address or with one player key lately (``seen``, the sightings
the API records) do not change each other's ratings, and nobody gains from a leaver
(``guards.py``); a seat's result keeps the seats its rating ignored, and why.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from app.config import get_settings
from app.core.loops import Sweeper
from app.rooms.domain.match_end import FinishedMatch, LatestMatch

from .guards import Remembered, SeatWho, ignored
from .model import BOT_ANCHORS, MAX_PLAYERS, MIN_PLAYERS, NEW, Finisher, Skill, rate, standing

log = logging.getLogger("krypkasino.ratings")


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a rated match: an account's or a bot's."""

    seat: int
    account_id: str | None
    bot_level: str | None
    """The level of a bot seat (its rating is the level's anchor), else None."""
    left: bool
    total: int


@dataclass(frozen=True, slots=True)
class RatedMatch:
    room_id: str
    match_no: int
    players: int
    at_ms: int
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a rated match did to one seat's rating (a bot's ``after`` is its anchor)."""

    seat: int
    account_id: str | None
    bot_level: str | None
    rank: int
    """0 for the best standing; ties share a rank; whoever left is last."""
    left: bool
    total: int
    before: Skill
    after: Skill
    apart: tuple[tuple[int, str], ...] = ()
    """The seats this seat's rating ignored, and why (``guards.SHARED``, ``LEFT``)."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What rating a match did: nothing for a void one (looked at, not rated)."""

    room_id: str
    match_no: int
    players: int
    at_ms: int
    void: bool
    seats: tuple[SeatChange, ...]


Rater = Callable[[Mapping[str, Skill]], list[SeatChange]]
"""Given the accounts' current ratings at the match's player count, each seat's change."""


@dataclass(frozen=True, slots=True)
class RatingEntry:
    players: int
    skill: Skill
    matches: int


@dataclass(frozen=True, slots=True)
class LeaderRow:
    username: str
    skill: Skill
    matches: int


class RatingStore(Protocol):
    """Storage of the ratings (app/db/ratings.py)."""

    async def seat_accounts(self, room_id: str) -> dict[int, str]:
        """The account holding each seat of the room that an account holds."""

    async def linked(self, accounts: Collection[str], since_ms: int) -> set[frozenset[str]]:
        """The pairs of ``accounts`` seen at one address or with one player key, both
        since ``since_ms``."""

    async def sighted(self, account_id: str, kind: str, value: str, now_ms: int) -> None:
        """The account was seen at that address or with that key now."""

    async def forget_sightings(self, before_ms: int) -> int:
        """Drop the sightings last seen before ``before_ms``; how many."""

    async def match_result(self, room_id: str, match_no: int) -> MatchResult | None:
        """The rating of that match, None while it is not rated (or never will be)."""

    async def record(self, match: RatedMatch, rater: Rater) -> bool:
        """Rate ``match`` in one transaction: False (and nothing changed) when it was
        already rated."""

    async def void(self, room_id: str, match_no: int, players: int, at_ms: int) -> None:
        """Mark a match looked at and not rated (the catch-up passes it by)."""

    async def unrated(self, limit: int) -> list[tuple[str, int]]:
        """(room id, match no) of finished matches of rated rooms not rated yet."""

    async def ratings_of(self, account_id: str) -> list[RatingEntry]:
        """The account's ratings, by player count."""

    async def leaderboard(self, players: int, min_matches: int, limit: int) -> list[LeaderRow]:
        """Accounts (not deleted) with at least ``min_matches`` rated matches at this
        player count, best conservative rating (``Skill.ordinal``) first."""


def seat_changes(
    match: RatedMatch, current: Mapping[str, Skill], linked: Collection[frozenset[str]] = ()
) -> list[SeatChange]:
    """Rate a match: each seat's rank (``standing``), its rating before (an account's
    stored one or NEW, a bot's anchor) and after (a bot keeps its anchor).  An
    account's new rating is the model's update over the seats it does not ignore
    (``guards.ignored``: accounts ``linked`` to it; the leavers, if it stayed)."""
    seats = match.seats
    ranks = standing([Finisher(s.total, s.left) for s in seats])
    before = [_before(s, current) for s in seats]
    apart = ignored([SeatWho(s.seat, s.account_id, s.left) for s in seats], linked)
    changes = []
    for i, (s, rank, old) in enumerate(zip(seats, ranks, before, strict=True)):
        skip = apart.get(s.seat, {})
        counted = [j for j, o in enumerate(seats) if o.seat not in skip]
        new = old
        if s.account_id is not None and len(counted) > 1:
            sub = standing([Finisher(seats[j].total, seats[j].left) for j in counted])
            new = rate([before[j] for j in counted], sub)[counted.index(i)]
        changes.append(
            SeatChange(
                seat=s.seat,
                account_id=s.account_id,
                bot_level=s.bot_level,
                rank=rank,
                left=s.left,
                total=s.total,
                before=old,
                after=new,
                apart=tuple(sorted(skip.items())),
            )
        )
    return changes


def _before(seat: RatedSeat, current: Mapping[str, Skill]) -> Skill:
    if seat.account_id is not None:
        return current.get(seat.account_id, NEW)
    if seat.bot_level is not None:
        return BOT_ANCHORS.get(seat.bot_level, BOT_ANCHORS["greedy"])
    return NEW  # neither (not possible in a rated room): rated as new, never stored


def rated_match(finished: FinishedMatch, accounts: Mapping[int, str]) -> RatedMatch | None:
    """The rated form of a finished match, or None when it is not rated: not a rated
    room, or an account holding two seats (refused when seats are taken; should one
    slip through, the match counts for nobody rather than twice for one person)."""
    if not finished.rated or not MIN_PLAYERS <= finished.players <= MAX_PLAYERS:
        return None
    held = [accounts[s.seat] for s in finished.seats if s.seat in accounts]
    if len(held) != len(set(held)):
        where = {"room": finished.room_id, "match": finished.match_no}
        log.warning("rated match not rated: one account held two seats", extra=where)
        return None
    seats = tuple(
        RatedSeat(
            seat=s.seat,
            account_id=None if s.bot else accounts.get(s.seat),
            bot_level=finished.bot_level if s.bot else None,
            left=s.left,
            total=s.total,
        )
        for s in finished.seats
    )
    return RatedMatch(finished.room_id, finished.match_no, finished.players, finished.at_ms, seats)


LoadMatch = Callable[[str], Awaitable[LatestMatch | None]]
"""A room's latest match as stored (the room service's ``latest_match``)."""


class Ratings:
    """The ratings feature: the match-end hook, the catch-up, and the reads."""

    def __init__(
        self,
        store: RatingStore,
        latest_match: LoadMatch,
        *,
        min_matches: int = 1,
        leaderboard_size: int = 100,
        catch_up_seconds: float = 300.0,
        shared_days: float | None = None,
    ) -> None:
        self.store = store
        self.latest_match = latest_match
        self.min_matches = min_matches
        self.leaderboard_size = leaderboard_size
        self.catch_up_seconds = catch_up_seconds
        if shared_days is None:  # not handed: the host's setting
            shared_days = get_settings().ratings_shared_days
        self.shared_ms = int(shared_days * 86_400_000)
        """RATINGS_SHARED_DAYS in ms (0: accounts are never linked, nothing is kept)."""
        self._remembered = Remembered()
        self._loop = Sweeper("ratings catch-up", self.catch_up, catch_up_seconds, log, jitter=False)

    @property
    def rounds(self) -> int:
        """Catch-up rounds this process has finished (``krypkasino_background_rounds``):
        a test that shows nothing more happens waits on these, not on time."""
        return self._loop.rounds

    async def on_match_end(self, finished: FinishedMatch) -> bool:
        """Rate a match that just ended (a no-op for an unrated room); True when this
        call rated it, False when it was not rated or already rated."""
        if not finished.rated:
            return False
        match = rated_match(finished, await self.store.seat_accounts(finished.room_id))
        if match is None:
            await self.store.void(
                finished.room_id, finished.match_no, finished.players, finished.at_ms
            )
            return False

        linked: set[frozenset[str]] = set()
        accounts = {s.account_id for s in match.seats if s.account_id is not None}
        if self.shared_ms and len(accounts) > 1:
            linked = await self.store.linked(accounts, match.at_ms - self.shared_ms)

        def rater(current: Mapping[str, Skill]) -> list[SeatChange]:
            return seat_changes(match, current, linked)

        done = await self.store.record(match, rater)
        if done:
            log.info("match rated", extra={"room": match.room_id, "match": match.match_no})
        return done

    async def seen(self, account_id: str, sightings: Sequence[tuple[str, str]]) -> None:
        """The account was seen now at these (kind, value): its address's keyed hash,
        its player keys' hashes (the API calls this for every signed-in request).  A
        process writes each at most once an hour; nothing with RATINGS_SHARED_DAYS 0."""
        if not self.shared_ms:
            return
        now = int(time.time() * 1000)
        for kind, value in sightings:
            if not self._remembered.due(account_id, kind, value, now):
                continue
            try:
                await self.store.sighted(account_id, kind, value, now)
            except BaseException:
                self._remembered.forget(account_id, kind, value)
                raise

    async def catch_up(self, limit: int = 50) -> int:
        """Rate finished matches of rated rooms that no process rated (one that died
        between the last play's commit and its rating).  Only a room's latest match can
        be rated this way (whoever left is read from the room as it stands); returns how
        many this call rated."""
        rated = 0
        for room_id, match_no in await self.store.unrated(limit):
            latest = await self.latest_match(room_id)
            if latest is None:
                continue  # purged meanwhile: its rows went with it
            finished = latest.finished
            if finished is not None and finished.match_no == match_no:
                rated += await self.on_match_end(finished)
            elif latest.match_no > match_no:  # a rematch began: who left is not known now
                await self.store.void(room_id, match_no, latest.players, latest.changed_at)
        if self.shared_ms:  # sightings older than the window link nobody: dropped
            await self.store.forget_sightings(int(time.time() * 1000) - self.shared_ms)
        return rated

    async def ratings_of(self, account_id: str) -> list[RatingEntry]:
        return await self.store.ratings_of(account_id)

    async def match_result(self, room_id: str, match_no: int) -> MatchResult | None:
        return await self.store.match_result(room_id, match_no)

    async def seated_accounts(self, room_id: str) -> set[str]:
        """The accounts holding a seat of the room (a rated room takes each once)."""
        return set((await self.store.seat_accounts(room_id)).values())

    async def leaderboard(self, players: int) -> list[LeaderRow]:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        return await self.store.leaderboard(players, self.min_matches, self.leaderboard_size)

    # ------------------------------------------------------------- lifecycle

    def start(self) -> None:
        """Look for unrated matches now, then every ``catch_up_seconds``."""
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()


class SkillJson(TypedDict):
    """A rating as every answer gives it (``skill_json``)."""

    rating: float
    mu: float
    sigma: float
    provisional: bool


class RatingJson(SkillJson):
    """A rating at one player count, with its rated matches (``entries_json``)."""

    matches: int


def skill_json(s: Skill) -> SkillJson:
    """A rating as every answer gives it: ``rating`` the cautious mu - 3 sigma the
    leaderboard ranks by, ``mu`` the number people are shown and ``provisional`` its "?"
    mark (docs/ratings.md, "What people are shown")."""
    return {
        "rating": round(s.ordinal, 2),
        "mu": round(s.mu, 3),
        "sigma": round(s.sigma, 3),
        "provisional": s.provisional,
    }


def entries_json(entries: Sequence[RatingEntry]) -> dict[str, RatingJson]:
    """An account's ratings as GET /api/me and the profile show them, by player count."""
    return {str(e.players): {**skill_json(e.skill), "matches": e.matches} for e in entries}
