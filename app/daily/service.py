"""The deal of the day (issue 32): the day's seeds, playing the deal once, the results.

A day's seed per player count is fixed by the first request that needs it, in any
process: the store inserts it under the unique key (date, players) or, when another
process was first, answers the one stored (``fix_deal``), so every process deals the
same.  Its commitment is public from then on, the seed once the day is over.

Playing is claiming first: the play's row (date, players, player key's hash) is
inserted before the room is made, so a second request for the same key, even at the
same moment in another process, is refused ``already_played`` and no second room is
made.  The room is one deal (V8) against strong bots whose moves are seeded from the
day's seed and the position (app/rooms: ``DealPreset``), the player always in seat 0.
A play's points are recorded once: when its match ends (the rooms' match-end hook),
or, should that process have died first, by the next read of the day's results from
the finished deal's stored totals; either way only a row without points is written.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, new_seed
from app.rooms.domain.errors import ErrorCode, ServiceError, unavailable
from app.rooms.domain.match_end import FinishedMatch
from app.rooms.domain.options import DealPreset
from app.rooms.domain.results import RoomCreated
from app.rooms.store import Unavailable

from . import seeds
from .ranking import place

PLAYER_SEAT = 0
"""The seat the player of the deal of the day always takes."""


@dataclass(frozen=True, slots=True)
class DayDeal:
    """A day's deal for one player count, as stored."""

    day: str
    players: int
    seed: str
    commitment: str
    played: int
    """Plays of it finished."""


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished play of a day's deal."""

    name: str
    points: int
    room_id: str
    seat: int
    player_hash: str


class DailyStore(Protocol):
    async def fix_deal(
        self, day: str, players: int, seed: str, commitment: str, now_ms: int
    ) -> DayDeal:
        """Insert the day's deal unless one is stored; either way the stored one."""

    async def deal(self, day: str, players: int) -> DayDeal | None: ...

    async def days(self, before: str, limit: int) -> list[DayDeal]:
        """The deals of the ``limit`` latest days before ``before``, newest first."""

    async def claim(self, day: str, players: int, player_hash: str, name: str, now_ms: int) -> bool:
        """Insert the play's row; False when this key has one for that deal."""

    async def unclaim(self, day: str, players: int, player_hash: str) -> None:
        """Drop a claim whose room could not be made."""

    async def seat_play(
        self, day: str, players: int, player_hash: str, room_id: str, seat: int
    ) -> None: ...

    async def finish(self, room_id: str, totals: Sequence[int], now_ms: int) -> bool:
        """Record a daily room's points (its seat's total) unless recorded; True if now."""

    async def settle(self, day: str, players: int, now_ms: int) -> int:
        """Record the points of finished deals of the day nobody recorded; how many."""

    async def results(self, day: str, players: int) -> list[Finished]: ...


class DealInfo(TypedDict):
    players: int
    commitment: str
    played: int
    seed: str | None
    """Once the day is over; None before."""


class DayInfo(TypedDict):
    date: str
    deals: list[DealInfo]


class ResultRow(TypedDict):
    name: str
    points: int
    rank: int
    percentile: float
    room_id: str | None
    """The play's room (its replay), once the day is over or to a player who finished
    the deal; None to others: a replay shows every card of the day's deal."""
    you: bool


class Results(TypedDict):
    date: str
    players: int
    commitment: str
    seed: str | None
    results: list[ResultRow]
    you: ResultRow | None
    """The asking player's own result, when they finished the deal."""


MakeRoom = Callable[[int, str, RuleSet, DealPreset, str | None, int], Awaitable[RoomCreated]]
"""(players, name, rules, preset, creator address, seat) -> a new room of one person
against bots (the features wire it to the room service)."""


def now_ms() -> int:
    return int(time.time() * 1000)


class Daily:
    def __init__(
        self,
        store: DailyStore,
        make_room: MakeRoom,
        players: Sequence[int] = (3, 4),
        shift_days: int = 0,
    ) -> None:
        self.store = store
        self.make_room = make_room
        self.players = tuple(sorted(set(players)))
        self.shift_days = shift_days
        """Days added to the UTC clock: for tests only (DAILY_DAY_SHIFT)."""
        self._fixed: set[tuple[str, int]] = set()
        """Deals this process has seen fixed: read from then on, not inserted again (a
        seed once fixed never changes; only the count of plays does)."""

    def today(self) -> str:
        return seeds.utc_day(self.shift_days)

    def _check_players(self, players: int) -> None:
        if players not in self.players:
            counts = ", ".join(map(str, self.players))
            raise ServiceError(ErrorCode.NOT_FOUND, f"the deal of the day is for {counts} players")

    async def _today_deal(self, players: int) -> DayDeal:
        """Today's deal, fixed now if nobody had (in any process)."""
        day = self.today()
        if (day, players) in self._fixed:
            found = await self.store.deal(day, players)
            if found is not None:
                return found
        seed = new_seed()
        deal = await self.store.fix_deal(day, players, seed, commitment(seed), now_ms())
        if len(self._fixed) > 64:  # yesterday's are never asked for again
            self._fixed.clear()
        self._fixed.add((day, players))
        return deal

    def _info(self, deal: DayDeal, over: bool) -> DealInfo:
        return {
            "players": deal.players,
            "commitment": deal.commitment,
            "played": deal.played,
            "seed": deal.seed if over else None,
        }

    async def overview(self) -> DayInfo:
        """Today's deals: their commitments and how many have played them."""
        try:
            deals = [await self._today_deal(n) for n in self.players]
        except Unavailable as exc:
            raise unavailable() from exc
        return {"date": self.today(), "deals": [self._info(d, over=False) for d in deals]}

    async def past_days(self, limit: int = 30) -> list[DayInfo]:
        """The days before today that had deals, newest first, with their seeds."""
        try:
            deals = await self.store.days(self.today(), limit)
        except Unavailable as exc:
            raise unavailable() from exc
        days: dict[str, list[DealInfo]] = {}
        for d in deals:
            days.setdefault(d.day, []).append(self._info(d, over=True))
        return [{"date": day, "deals": found} for day, found in days.items()]

    async def play(
        self, players: int, player_hash: str, name: str, creator: str | None
    ) -> RoomCreated:
        """Seat the player at today's deal for ``players``: once per key (``already_played``)."""
        self._check_players(players)
        day = self.today()
        try:
            deal = await self._today_deal(players)
            if not await self.store.claim(day, players, player_hash, name, now_ms()):
                raise ServiceError(
                    ErrorCode.ALREADY_PLAYED, "you have played today's deal for this many players"
                )
        except Unavailable as exc:
            raise unavailable() from exc
        preset = DealPreset(
            seed=seeds.pack_seed(deal.seed),
            dealer=seeds.dealer(deal.seed, players),
            bot_seed=seeds.bot_seed(deal.seed),
        )
        try:
            made = await self.make_room(
                players, name, RuleSet(match_deals=1), preset, creator, PLAYER_SEAT
            )
        except BaseException:
            await self.store.unclaim(day, players, player_hash)  # the key may try again
            raise
        try:
            await self.store.seat_play(day, players, player_hash, made["room_id"], made["seat"])
        except Unavailable as exc:
            raise unavailable() from exc
        return made

    async def match_ended(self, finished: FinishedMatch) -> None:
        """The rooms' match-end hook: a daily room's first (only) match records its points."""
        if finished.match_no != 1:
            return
        totals = [s.total for s in finished.seats]
        await self.store.finish(finished.room_id, totals, now_ms())

    async def results(self, day: str, players: int, player_hash: str | None) -> Results:
        """Every finished play of a day's deal, best first, with ranks and percentiles."""
        parsed = seeds.parse_day(day)
        self._check_players(players)
        today = self.today()
        if parsed is None or parsed > today:
            raise ServiceError(ErrorCode.NOT_FOUND, "no deal of the day on that date")
        try:
            deal = await self.store.deal(parsed, players)
            if deal is None:
                raise ServiceError(ErrorCode.NOT_FOUND, "no deal of the day on that date")
            await self.store.settle(parsed, players, now_ms())
            finished = await self.store.results(parsed, players)
        except Unavailable as exc:
            raise unavailable() from exc
        over = parsed < today
        points = [f.points for f in finished]
        mine = player_hash is not None and any(f.player_hash == player_hash for f in finished)
        rows: list[ResultRow] = []
        for f in sorted(finished, key=lambda f: (f.points, f.name, f.room_id)):
            placed = place(f.points, points)
            rows.append(
                {
                    "name": f.name,
                    "points": f.points,
                    "rank": placed.rank,
                    "percentile": placed.percentile,
                    "room_id": f.room_id if over or mine else None,
                    "you": f.player_hash == player_hash,
                }
            )
        return {
            "date": parsed,
            "players": players,
            "commitment": deal.commitment,
            "seed": deal.seed if over else None,
            "results": rows,
            "you": next((r for r in rows if r["you"]), None),
        }
