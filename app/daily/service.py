"""The deal of the day (issue 32): the day's seeds, playing the deal once, the results.

A day's seed per player count is fixed by the first request that needs it, in any
process: the store inserts it under the unique key (date, players) or, when another
process was first, answers the one stored (``fix_deal``), so every process deals the
same.  Its commitment is public from then on, the seed once the day is over.

Playing is claiming first: the play's row (date, players, player key's hash, and the
signed-in account if any) is inserted before the room is made, so a second request for
the same key or the same account, even at the same moment in another process, is
refused ``already_played`` and no second room is made.  Keys are free, so a play is
*ranked* only if it is among the first DAILY_RANKED_PER_ADDRESS plays of that deal
started from its address (``ranking.ranked_keys``); later ones are played and scored
and shown to their player, not ranked (issue 46).  The room is one deal (V8) against
strong bots whose moves are seeded from the day's seed and the position (app/rooms:
``DealPreset``), the player always in seat 0.
A play's points are recorded once: when its match ends (the rooms' match-end hook),
or, should that process have died first, by the next read of the day's results from
the finished deal's stored totals; either way only a row without points is written.

Until the day is over a play's room shows every card of the day's deal once its deal
is over, so its deal record, replay, analysis and "Play this deal yourself" are its
player's alone (``may_see``: the key that played it, or the account that did or that
holds its seat); everyone may see them once the day is over, as the seed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from app.config import get_settings
from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.core.tokens import creator_key
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, new_seed
from app.rooms.domain.match_end import FinishedMatch
from app.rooms.domain.options import DealPreset
from app.rooms.domain.results import RoomCreated

from . import seeds
from .errors import DailyCode
from .ranking import Start, place, ranked_keys

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
    account_id: str | None = None


ROOM_DAYS_KEPT = 10_000
"""Rooms whose deal-of-the-day date ``private_now`` remembers (the oldest go first)."""


@dataclass(frozen=True, slots=True)
class RoomPlay:
    """The play of the day's deal a room was made for."""

    day: str
    player_hash: str
    accounts: frozenset[str]
    """The account that started it and the one holding its seat (one, or none)."""


class DailyStore(Protocol):
    async def fix_deal(
        self, day: str, players: int, seed: str, commitment: str, now_ms: int
    ) -> DayDeal:
        """Insert the day's deal unless one is stored; either way the stored one."""

    async def deal(self, day: str, players: int) -> DayDeal | None: ...

    async def days(self, before: str, limit: int) -> list[DayDeal]:
        """The deals of the ``limit`` latest days before ``before``, newest first."""

    async def claim(
        self,
        day: str,
        players: int,
        player_hash: str,
        name: str,
        now_ms: int,
        account_id: str | None = None,
        address_hash: str | None = None,
    ) -> bool:
        """Insert the play's row; False when this key, or this account, has one for that
        deal."""

    async def starts(self, day: str, players: int) -> list[Start]:
        """Every play of the deal started (finished or not)."""

    async def room_play(self, room_id: str) -> RoomPlay | None:
        """The play a daily room was made for; None for any other room."""

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
    """The play's room (its replay), once the day is over, or to its own player; None
    to others: a replay shows every card of the day's deal."""
    you: bool
    ranked: bool
    """False for a play past DAILY_RANKED_PER_ADDRESS from its address: not among the
    results (the asking player's own is in ``you``, placed as if it were)."""


class Results(TypedDict):
    date: str
    players: int
    commitment: str
    seed: str | None
    results: list[ResultRow]
    """The ranked plays."""
    you: ResultRow | None
    """The asking player's own result, when they finished the deal."""


MakeRoom = Callable[[int, str, RuleSet, DealPreset, str | None, int], Awaitable[RoomCreated]]
"""(players, name, rules, preset, creator address, seat) -> a new room of one person
against bots (the features wire it to the room service)."""


class Daily:
    def __init__(
        self,
        store: DailyStore,
        make_room: MakeRoom,
        players: Sequence[int] = (3, 4),
        shift_days: int = 0,
        ranked_per_address: int | None = None,
    ) -> None:
        self.store = store
        self.make_room = make_room
        self.players = tuple(sorted(set(players)))
        self.shift_days = shift_days
        self._room_days: dict[str, str | None] = {}
        """Per room asked about by ``private_now``: its deal of the day's date, or None."""
        """Days added to the UTC clock: for tests only (DAILY_DAY_SHIFT)."""
        if ranked_per_address is None:  # not handed: the host's setting
            ranked_per_address = get_settings().daily_ranked_per_address
        self.ranked_per_address = ranked_per_address
        """DAILY_RANKED_PER_ADDRESS (0: no limit)."""
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
        self,
        players: int,
        player_hash: str,
        name: str,
        creator: str | None,
        account_id: str | None = None,
    ) -> RoomCreated:
        """Seat the player at today's deal for ``players``: once per key and once per
        account (``already_played``, never dealt again); ``creator`` is the address
        (only its hash is kept, for DAILY_RANKED_PER_ADDRESS)."""
        self._check_players(players)
        day = self.today()
        address = None if creator is None else creator_key(creator)
        try:
            deal = await self._today_deal(players)
            claimed = await self.store.claim(
                day, players, player_hash, name, now_ms(), account_id, address
            )
            if not claimed:
                raise ServiceError(
                    DailyCode.ALREADY_PLAYED,
                    "you have played today's deal for this many players (with this "
                    "browser or this account): it is played once",
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
            await self.store.seat_play(day, players, player_hash, made.room_id, made.seat)
        except Unavailable as exc:
            raise unavailable() from exc
        return made

    async def match_ended(self, finished: FinishedMatch) -> None:
        """The rooms' match-end hook: a daily room's first (only) match records its points."""
        if finished.match_no != 1:
            return
        totals = [s.total for s in finished.seats]
        await self.store.finish(finished.room_id, totals, now_ms())

    async def private_now(self, room_id: str) -> bool:
        """Whether the room played a deal of the day that is not over yet: its deals
        are then its player's alone (a shared review keeps them from spectators).  A
        room's day never changes, so it is remembered (the latest rooms asked about)."""
        if room_id not in self._room_days:
            try:
                found = await self.store.room_play(room_id)
            except Unavailable:
                return True  # unknown: keep the cards hidden until the database answers
            if len(self._room_days) >= ROOM_DAYS_KEPT:
                self._room_days.pop(next(iter(self._room_days)))
            self._room_days[room_id] = None if found is None else found.day
        day = self._room_days[room_id]
        return day is not None and not day < self.today()

    async def may_see(
        self, room_id: str, player_hashes: Sequence[str], account_id: str | None
    ) -> bool:
        """Whether the room's finished deals may be shown (records, replays, analyses,
        played again) to a request with these player keys and this account: any room
        but a play of a day's deal that is not over; such a play to its own player."""
        try:
            found = await self.store.room_play(room_id)
        except Unavailable as exc:
            raise unavailable() from exc
        if found is None or found.day < self.today():
            return True
        return found.player_hash in player_hashes or (
            account_id is not None and account_id in found.accounts
        )

    async def results(
        self, day: str, players: int, player_hash: str | None, account_id: str | None = None
    ) -> Results:
        """Every finished ranked play of a day's deal, best first, with ranks and
        percentiles; the asking player's own play (by key or account) in ``you``."""
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
            starts = await self.store.starts(parsed, players)
        except Unavailable as exc:
            raise unavailable() from exc
        over = parsed < today
        ranked = ranked_keys(starts, self.ranked_per_address)
        points = [f.points for f in finished if f.player_hash in ranked]

        def row(f: Finished) -> ResultRow:
            counted = f.player_hash in ranked
            placed = place(f.points, points if counted else [*points, f.points])
            you = f.player_hash == player_hash or (
                account_id is not None and f.account_id == account_id
            )
            return {
                "name": f.name,
                "points": f.points,
                "rank": placed.rank,
                "percentile": placed.percentile,
                "room_id": f.room_id if over or you else None,
                "you": you,
                "ranked": counted,
            }

        rows = [row(f) for f in sorted(finished, key=lambda f: (f.points, f.name, f.room_id))]
        return {
            "date": parsed,
            "players": players,
            "commitment": deal.commitment,
            "seed": deal.seed if over else None,
            "results": [r for r in rows if r["ranked"]],
            "you": next((r for r in rows if r["you"]), None),
        }
