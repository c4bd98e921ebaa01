"""Packs with an outside bot, played in the server's real rooms (issue 51).

An outside bot plays over the network, so its seat cannot be asked in-process as a
level's is.  Each deal of such a pack is one room, made for it alone: the pack's
seed as the room's first deal (a ``DealPreset``, as "Play this deal yourself"
makes a room of a fixed deal), dealer seat 0 (``schedule.DEALER``), one deal
(``match_deals`` 1), the outside bot in the seat the pack's seating gives it
(the room's maker, its seat linked to the bot's account: its event stream is told
the game and it takes the seat with hello ``own``) and the room's built-in bots in
every other seat, each of its entrant's level (``RoomOptions.seat_levels``).  Rooms
are played one after another, so the bot plays one ladder game at a time.

The room is a challenge room (``bot_seed`` set): the built-in bots' moves are
seeded by the position and the strong level searches a fixed number of worlds, and
the bot plays unaided (no hint, no take-back).  A turn has a clock of ``turn_s``
(LADDER_TURN_SECONDS), and the bot's grace when it is not connected is as long; a
bot that does not answer in time is played for by the rooms' stand-in, as anyone
is, and the move counts as the bot's, marked ``by`` in the record.  The room plays
unattended (``plays_unattended``): nobody need be connected for its timers to run,
so a bot that never comes, or leaves, does not hold the ladder up.

When the deal is over its record is read back (``deal_record``), replayed by the
engine from the pack's seed (a record that does not replay to its scores is
refused), and returned as the ``PlayedDeal`` an in-process pack gives: stored and
published exactly alike.

A table of several outside bots is one room too: the first of them in seat order is
its maker, and the others are seated with it when the room is made
(``NewRoom.outside_seats``), each seat linked to its own bot account, so nobody else
can take one in between; the built-in levels take the seats left.  The schedule
skips a table while any of its outside bots has no stream open (``LadderRunner``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from app.bots.duplicate import side_totals
from app.core.errors import ErrorCode, ServiceError
from app.engine.errors import EngineError
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.options import STAND_IN_LEVEL, DealPreset, RoomOptions
from app.rooms.domain.record_types import DealRecord
from app.rooms.domain.results import RoomCreated

from .entrants import Entrant
from .play import PlayedDeal, deal_of
from .schedule import DEALER, PackPlan, Table

TURN_S = 20.0
"""The outside seat's clock per move; then the stand-in plays for it."""
DEAL_LIMIT_S = 1800.0
"""A room whose deal is not over in this long is given up (the pack stays unfinished
and is taken over later, played again from its seed)."""
POLL_S = 0.25


class LadderRoomError(RuntimeError):
    """A ladder room that could not be made, finished or read back."""


@dataclass(frozen=True, slots=True)
class OutsideBot:
    account_id: str
    username: str


class BotDirectory(Protocol):
    """The bot accounts (app/db/ladder_bots.py)."""

    async def outside_bot(self, name_or_id: str) -> OutsideBot | None:
        """The bot account of this id or username; None for none."""

    async def online(self, account_id: str) -> bool:
        """Whether the bot has an event stream open now."""


MakeRoom = Callable[[NewRoom], Awaitable[RoomCreated]]
"""The room service's ``execute`` for a new room."""
ReadDeal = Callable[[str, int], Awaitable[DealRecord]]
"""The room service's ``deal_record(room_id, deal_no)``: ``not_found`` until it is over."""
SeatBot = Callable[[OutsideBot, str, int, str], Awaitable[None]]
"""Link seat ``seat`` (held with ``token``) of room ``room_id`` to the bot's account and
wake its streams: ``seat_bot(bot, room_id, seat, token)``."""
RoomClosed = Callable[[str], Awaitable[bool]]
"""Whether the room was closed (by its host, an admin, or expiry) or is gone."""


def outside_of(table: Table) -> list[Entrant]:
    return [e for e in table if e.kind == "outside"]


def room_rules(rules: RuleSet) -> RuleSet:
    """The ladder's rules for a room of one deal (how long a match is changes no deal)."""
    return replace(rules, match_deals=1, match_limit=None, tie_break_deal=False)


def played_from(plan: PackPlan, index: int, record: DealRecord) -> PlayedDeal:
    """A room's deal record as deal ``index`` of the pack, replayed by the engine from
    the pack's seed: it must be that deal, and its moves must give its scores."""
    if record["seed"] != plan.seed or record["dealer"] != DEALER:
        raise LadderRoomError("the room dealt another deal than the pack's")
    deal = deal_of(plan)
    try:
        for move in record["moves"]:
            deal.apply(move["card"], tuple(move["take"]))
    except EngineError as exc:
        raise LadderRoomError(f"the room's record does not replay: {exc}") from exc
    if not deal.is_over or deal.scores_list() != record["scores"]:
        raise LadderRoomError("the room's record does not replay to its scores")
    totals = side_totals(plan.rules, deal.totals())
    return PlayedDeal(index, list(record["moves"]), deal.scores_list(), totals)


def ladder_room(
    plan: PackPlan, index: int, seats: list[str], bots: dict[str, OutsideBot], turn_s: float
) -> NewRoom:
    """The room of deal ``index`` of the pack, its entrants in ``seats`` (ids): the
    first outside bot in seat order makes it, the other outside bots (``bots``, by
    entrant id) are seated with it, and each other seat is a built-in bot of its
    entrant's level."""
    levels = tuple("" if e in bots else Entrant.from_id(e).name for e in seats)
    outside = [(seat, bots[e]) for seat, e in enumerate(seats) if e in bots]
    if not outside:
        raise LadderRoomError("a table without an outside bot is played in-process")
    (maker_seat, maker), others = outside[0], outside[1:]
    options = RoomOptions(
        bot_level=next((level for level in levels if level), STAND_IN_LEVEL),
        seat_levels=levels,
        plays_unattended=True,
        bot_delay=0.0,
        turn_clock=turn_s,
        grace=turn_s,
        takeback="off",
        hints=False,
        preset=DealPreset(plan.seed, DEALER, bot_seed=f"ladder:{plan.seed}:{index}"),
    )
    return NewRoom(
        plan.players,
        maker.username,
        room_rules(plan.rules),
        plan.players - len(outside),
        options,
        seat=maker_seat,
        outside_bot=True,
        outside_seats=tuple((seat, bot.username) for seat, bot in others),
    )


@dataclass(slots=True)
class ServerRooms:
    """The server's rooms as the ladder plays them (app/main.py hands in the room
    service's calls)."""

    bots: BotDirectory
    make_room: MakeRoom
    read_deal: ReadDeal
    seat_bot: SeatBot
    room_closed: RoomClosed
    turn_s: float = TURN_S
    deal_limit_s: float = DEAL_LIMIT_S

    async def play(self, plan: PackPlan) -> list[PlayedDeal]:
        """Every deal of the pack, one room each, one after another."""
        bots: dict[str, OutsideBot] = {}
        for outside in outside_of(plan.table):
            bot = await self.bots.outside_bot(outside.name)
            if bot is None:
                raise LadderRoomError(f"no bot account {outside.name!r}")
            bots[outside.id] = bot
        return [
            await self._deal(plan, index, seats, bots)
            for index, seats in enumerate(plan.seatings())
        ]

    async def _deal(
        self, plan: PackPlan, index: int, seats: list[str], bots: dict[str, OutsideBot]
    ) -> PlayedDeal:
        made = await self.make_room(ladder_room(plan, index, seats, bots, self.turn_s))
        for seat, token in ((made.seat, made.token), *made.others):
            await self.seat_bot(bots[seats[seat]], made.room_id, seat, token)
        return played_from(plan, index, await self._over(made.room_id))

    async def _over(self, room_id: str) -> DealRecord:
        """The room's deal record once the deal is over (looked for every POLL_S); a
        room closed before it is fails the pack at once."""
        until = time.monotonic() + self.deal_limit_s
        while time.monotonic() < until:
            try:
                return await self.read_deal(room_id, 1)
            except ServiceError as exc:
                if exc.code != ErrorCode.NOT_FOUND:
                    raise
            if await self.room_closed(room_id):
                raise LadderRoomError(f"ladder room {room_id} was closed before its deal ended")
            await asyncio.sleep(POLL_S)
        raise LadderRoomError(f"ladder room {room_id} was not over in {self.deal_limit_s} s")
