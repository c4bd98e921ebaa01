"""The tournaments put together over the server's rooms (issue 49): the port that
makes a table's room (``ServerTables``), the loop that starts events and makes the
rooms of claimed tables, and the outbox's subscription that counts finished tables.
app/main.py builds these once, beside the other features."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.accounts.service import Account, Accounts
from app.core.errors import Unavailable
from app.core.loops import Sweeper
from app.core.outbox import MATCH_ENDED, StoredEvent, Subscriptions
from app.db.clubs import ClubRows
from app.db.repository import RoomRepository
from app.db.tournaments import TournamentRows
from app.rooms.domain.commands import JoinRoom, NewRoom
from app.rooms.domain.match_end import match_from_json
from app.rooms.domain.results import RoomCreated, SeatGiven
from app.tournaments.rooms import table_options, table_rules
from app.tournaments.service import Tournaments
from app.tournaments.store import TableToMake

log = logging.getLogger("krypkasino.tournaments")
TICK_SECONDS = 5.0
"""How often the loop looks (one indexed query when no event runs or is due): a
scheduled start or an arena's end is at most this late; a table's next room is made
at once by the commit that needs it, the loop only takes over claims that lapsed."""


@dataclass(slots=True)
class ServerTables:
    """Tables' rooms made by the room service (its ``execute``), each person's seat
    linked to them."""

    make_room: Callable[[NewRoom], Awaitable[RoomCreated]]
    join: Callable[[JoinRoom], Awaitable[SeatGiven]]
    accounts: Accounts
    grace: float
    day_seconds: float
    bot_delay: float

    async def make(self, table: TableToMake) -> str:
        seats = table.table.seats
        people = [p for p in seats if p is not None]
        plan = table.event.plan
        made = await self.make_room(
            NewRoom(
                plan.players,
                table.names[people[0]],
                table_rules(table),
                plan.players - len(people),
                table_options(table, self.grace, self.day_seconds, self.bot_delay),
            )
        )
        await self._link(people[0], table, made.room_id, made.seat, made.token)
        for account_id in people[1:]:
            given = await self.join(JoinRoom(made.room_id, table.names[account_id]))
            await self._link(account_id, table, made.room_id, given.seat, given.token)
        return made.room_id

    async def _link(
        self, account_id: str, table: TableToMake, room_id: str, seat: int, token: str
    ) -> None:
        account = Account(account_id, table.names[account_id], 0)
        await self.accounts.link_seat(account, room_id, seat, token)


def build_tournaments(
    repo: RoomRepository,
    make_room: Callable[[NewRoom], Awaitable[RoomCreated]],
    join: Callable[[JoinRoom], Awaitable[SeatGiven]],
    accounts: Accounts,
    grace: float,
    day_seconds: float,
    bot_delay: float,
) -> tuple[Tournaments, Sweeper]:
    """The tournaments service and its loop (started and stopped with the server)."""
    clubs = ClubRows(repo)
    tables = ServerTables(make_room, join, accounts, grace, day_seconds, bot_delay)
    tournaments = Tournaments(TournamentRows(repo), tables, clubs.membership)
    loop = Sweeper("tournaments", tournaments.tick, TICK_SECONDS, log, quiet=(Unavailable,))
    return tournaments, loop


def subscribe_tournaments(subs: Subscriptions, tournaments: Tournaments) -> None:
    """A table's match that ended counts once (app/core/outbox.py's subscriber)."""

    async def table_over(event: StoredEvent) -> None:
        await tournaments.match_ended(match_from_json(event.body))

    subs.subscribe("tournaments", [MATCH_ENDED], table_over)
