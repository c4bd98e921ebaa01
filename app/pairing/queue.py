"""Quick pairing: the queue's rules over a store, the rooms and (when they exist) ratings.

The queue lives in the database (``PairingStore``, ``app/db/pairing.py``), never in a
process's memory, so any server process may seat anyone: a table is formed by
whichever process asks first, in one transaction that claims its tickets (on
PostgreSQL ``SELECT … FOR UPDATE SKIP LOCKED``; on SQLite, one writer at a time and
an UPDATE that must find every ticket still waiting), so a person is seated exactly
once however many processes try at the same moment.

Forming a table is driven by the people waiting: a ticket's own POST and every poll
of a waiting ticket (``GET /api/pairing/{ticket}``, about once a second from the
browser) try to form one table of its queue.  The poll is also the ticket's
heartbeat: a ticket not polled for ``STALE_SECONDS`` (a closed tab) is never seated
and is removed by the next claim.  No timer runs anywhere, so nothing needs a lease.

Seating a table takes three steps: claim its tickets (``forming``, with a deadline),
make the room and seat everyone through the room service, then mark the tickets
``matched`` with their room, seat and token.  Should the process die between the
first and the last, the claim's deadline passes and the tickets wait again (the
half-made room is left like any room nobody opened; a waiting one expires).

A table's room counts against the address that made its first ticket (the room caps;
the ticket's id carries that address's key, app/pairing/tickets.py).  When that
address holds as many rooms as it may, its ticket is taken out of the queue and its
player told so (429 ``too_many_rooms``), and the others wait on for a table without it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, TypedDict

from app.core.clock import now_ms
from app.core.errors import Conflict, ErrorCode, ServiceError, Unavailable, unavailable
from app.engine.rules import RuleSet
from app.rooms.domain.commands import A, Command, JoinRoom, NewRoom
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.options import RoomOptions

from .errors import PairingCode
from .matching import Table, Waiting, Widening, form_table
from .seekers import Seeker
from .tickets import maker_of, new_ticket

log = logging.getLogger("krypkasino.pairing")

PACES = ("live",)
"""The paces one may queue for.  Correspondence rooms do not exist yet; when they do,
their pace joins this tuple and gets its own queues (every ticket carries its pace)."""
STALE_SECONDS = 20
"""A waiting ticket not polled for this long is given up (its player went away)."""
CLAIM_SECONDS = 30
"""How long a process may take to make a claimed table's room before the claim lapses."""
KEEP_MATCHED_SECONDS = 300
"""A seated ticket (with its seat token) is kept this long for its player to read."""
POLL_MS = 1000
"""How often a browser should poll a waiting ticket (told in every answer)."""
MOST_TABLES_PER_TRY = 3
"""Tables one request may form at most (a queue that filled at once drains in a few polls)."""
REFUSALS_KEPT = 1000
"""Tickets refused for their maker's room cap whose refusal this process remembers,
to answer their next poll with it (a poll on another process finds no ticket)."""
TRY_GAP_MS = 250
"""A process tries a queue from polls at most this often: a hundred people waiting in
one queue, polling once a second, make four claims a second, not a hundred (a new
ticket's own POST always tries)."""

Status = Literal["waiting", "forming", "matched"]


@dataclass(frozen=True, slots=True)
class Ticket:
    """A ticket as stored."""

    ticket: str
    identity: str
    name: str
    players: int
    pace: str
    bots_after: int | None
    rating: float | None
    status: Status
    created_ms: int
    seen_ms: int
    player_hash: str | None = None
    group_id: str | None = None
    room_id: str | None = None
    seat: int | None = None
    token: str | None = None

    def waiting(self) -> Waiting:
        return Waiting(self.ticket, self.created_ms, self.rating, self.bots_after)


class TicketState(TypedDict):
    """What ``POST`` and ``GET /api/pairing/...`` answer."""

    ticket: str
    status: Status
    players: int
    pace: str
    bots_after: int | None
    waited_ms: int
    poll_ms: int
    room_id: str | None
    seat: int | None
    token: str | None


@dataclass(frozen=True, slots=True)
class Claimed:
    """A table claimed in the store: its group id, its tickets in seat order, its bots."""

    group_id: str
    tickets: tuple[Ticket, ...]
    bots: int


FormTable = Callable[[Sequence[Waiting]], Table | None]


class PairingStore(Protocol):
    async def enqueue(self, ticket: Ticket, stale_before_ms: int) -> bool:
        """Store a new ticket; False when this identity has a live ticket already
        (waiting and polled since ``stale_before_ms``, or forming).  An old one of
        theirs (seated, or given up) is replaced."""

    async def read(self, ticket: str, identity: str, now_ms: int) -> Ticket | None:
        """The ticket (None unless it is this identity's); a waiting one is marked seen."""

    async def cancel(self, ticket: str, identity: str) -> Ticket | None:
        """Remove the ticket if it is still waiting; returns it as it was (None: no such
        ticket of theirs)."""

    async def claim(
        self, players: int, pace: str, now_ms: int, form: FormTable, group_id: str
    ) -> Claimed | None:
        """In one transaction: tidy the queues (drop tickets not seen since
        ``now - STALE_SECONDS``, let lapsed claims wait again, drop seated tickets
        kept long enough), then claim the table ``form`` makes of this queue's
        fresh waiting tickets, or nothing."""

    async def seat(
        self, group_id: str, seats: Sequence[tuple[str, str, int, str]], now_ms: int
    ) -> int:
        """Mark the claimed tickets seated: (ticket, room, seat, token) each; returns
        how many were still this group's claim."""

    async def release(self, group_id: str) -> None:
        """Let a claimed group's tickets wait again (its room could not be made)."""


class RoomMaker(Protocol):
    """The room service's commands, as a table is seated with them (``RoomService``):
    a ``NewRoom``, then a ``JoinRoom`` for each other person."""

    async def execute(self, command: Command[A]) -> A: ...


class RatingSource(Protocol):
    """A player's rating for a player count, when they have one (the ratings feature;
    until it is wired in, ``NoRatings``).  Its scale is the ratings' own: the matcher's
    ``Widening`` is in the same points."""

    async def rating(self, seeker: Seeker, players: int) -> float | None: ...


class NoRatings:
    async def rating(self, seeker: Seeker, players: int) -> float | None:
        return None


SeatOwner = Callable[[str, int, str, Ticket], Awaitable[None]]
"""(room, seat, token, ticket) -> record whose seat it is (a player key's "My games",
an account's games); best effort, the seat stands either way."""


class Pairing:
    def __init__(
        self,
        store: PairingStore,
        rooms: RoomMaker,
        options: Callable[[], RoomOptions],
        *,
        owner: SeatOwner | None = None,
        ratings: RatingSource | None = None,
        widening: Widening | None = None,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.options = options
        self.owner = owner
        self.ratings: RatingSource = ratings or NoRatings()
        self.widening = widening or Widening()
        self.clock = clock
        self._tried: dict[tuple[int, str], int] = {}
        """When this process last tried to form a table of each queue (clock ms)."""
        self._refused: dict[str, str] = {}
        """Ticket -> why it was taken out of the queue (its maker's room cap)."""

    async def find(
        self,
        seeker: Seeker,
        players: int,
        pace: str,
        bots_after: int | None,
        creator: str | None = None,
    ) -> TicketState:
        """Queue ``seeker`` for a table of ``players`` at ``pace``; a table is tried at once.
        ``creator``: the address asking, which the room this ticket leads to counts
        against (the caller checked that it may make one now)."""
        RuleSet().validate_for(players)  # 2..6 (R1.3): an EngineError is bad input
        if pace not in PACES:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"pace must be one of: {', '.join(PACES)}")
        now = self.clock()
        ticket = Ticket(
            ticket=new_ticket(creator),
            identity=seeker.identity,
            name=seeker.name,
            players=players,
            pace=pace,
            bots_after=bots_after,
            rating=await self.ratings.rating(seeker, players),
            status="waiting",
            created_ms=now,
            seen_ms=now,
            player_hash=seeker.player_hash,
        )
        try:
            stored = await self.store.enqueue(ticket, now - STALE_SECONDS * 1000)
        except Conflict:  # the same player queued twice at the same moment
            stored = False
        except Unavailable as exc:
            raise unavailable() from exc
        if not stored:
            raise ServiceError(
                PairingCode.ALREADY_QUEUED,
                "you are already waiting for a game; cancel that search first",
            )
        await self.match(players, pace)
        return await self.status(ticket.ticket, seeker)

    async def status(self, ticket: str, seeker: Seeker) -> TicketState:
        """The ticket as it stands; polling a waiting ticket keeps it alive and tries
        to form a table of its queue (a ``forming`` one too: its claim may have lapsed)."""
        found = await self._read(ticket, seeker)
        queue = (found.players, found.pace)
        due = self.clock() - self._tried.get(queue, -TRY_GAP_MS) >= TRY_GAP_MS
        if found.status != "matched" and due and await self.match(*queue):
            found = await self._read(ticket, seeker)
        return self._state(found)

    async def cancel(self, ticket: str, seeker: Seeker) -> None:
        """Leave the queue.  A ticket already being seated, or seated, is not cancelled
        (409 ``already_matched``: the room is there to go to or to leave)."""
        try:
            was = await self.store.cancel(ticket, seeker.identity)
        except Unavailable as exc:
            raise unavailable() from exc
        if was is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such ticket of yours")
        if was.status != "waiting":
            raise ServiceError(
                PairingCode.ALREADY_MATCHED, "too late to cancel: you have been seated at a table"
            )

    async def match(self, players: int, pace: str) -> int:
        """Form and seat up to ``MOST_TABLES_PER_TRY`` tables of one queue; how many
        were seated.  A store that does not answer forms none, and a room that cannot
        be made (the server is full) lets its people wait on: the next poll tries."""
        seated = 0
        self._tried[(players, pace)] = self.clock()
        for _ in range(MOST_TABLES_PER_TRY):
            now = self.clock()

            def form(queue: Sequence[Waiting], now: int = now) -> Table | None:
                return form_table(queue, players, now, self.widening)

            try:
                claimed = await self.store.claim(players, pace, now, form, secrets.token_hex(16))
            except (Unavailable, Conflict):
                return seated
            if claimed is None:
                return seated
            try:
                await self._seat(players, claimed)
            except ServiceError as exc:
                if exc.code == RoomCode.TOO_MANY_ROOMS:  # the first ticket's address
                    await self._refuse(claimed.tickets[0], exc.message)
                    continue  # the others wait on for a table without it
                # e.g. the server holds as many rooms as it may
                log.warning("a paired table could not be seated", extra={"code": exc.code})
                return seated  # its people wait on; a later poll tries again
            seated += 1
        return seated

    async def _seat(self, players: int, claimed: Claimed) -> None:
        """Make the table's room and seat its people, then tell their tickets."""
        first, rest = claimed.tickets[0], claimed.tickets[1:]
        try:
            plan = NewRoom(
                players,
                first.name,
                RuleSet(),
                claimed.bots,
                self.options(),
                made_by=maker_of(first.ticket),
            )
            made = await self.rooms.execute(plan)
            seats = [(first, made.seat, made.token)]
            for t in rest:
                given = await self.rooms.execute(JoinRoom(made.room_id, t.name))
                seats.append((t, given.seat, given.token))
        except (ServiceError, Unavailable):
            await self._release(claimed.group_id)
            raise
        rows = [(t.ticket, made.room_id, seat, token) for t, seat, token in seats]
        done = await self.store.seat(claimed.group_id, rows, self.clock())
        if done != len(rows):  # the claim lapsed meanwhile (a very slow process)
            # the room's id only: its maker's token is a credential, never logged
            log.warning(
                "a pairing claim lapsed before its room was made", extra={"room_id": made.room_id}
            )
        if self.owner is not None:
            for t, seat, token in seats:
                await self.owner(made.room_id, seat, token, replace(t, token=None))

    async def _refuse(self, ticket: Ticket, message: str) -> None:
        """Take a ticket whose maker may make no more rooms out of the queue (its group
        was released already) and remember why, for its player's next poll here."""
        try:
            await self.store.cancel(ticket.ticket, ticket.identity)
        except Unavailable:  # it waits on, and is refused again at the next try
            return
        log.info("a paired table's maker holds as many rooms as it may")
        self._refused[ticket.ticket] = message
        while len(self._refused) > REFUSALS_KEPT:
            del self._refused[next(iter(self._refused))]

    async def _release(self, group_id: str) -> None:
        try:
            await self.store.release(group_id)
        except Unavailable:  # the claim lapses by itself
            pass

    async def _read(self, ticket: str, seeker: Seeker) -> Ticket:
        try:
            found = await self.store.read(ticket, seeker.identity, self.clock())
        except Unavailable as exc:
            raise unavailable() from exc
        if found is None:
            refused = self._refused.get(ticket)
            if refused is not None:
                raise ServiceError(RoomCode.TOO_MANY_ROOMS, refused)
            raise ServiceError(
                ErrorCode.NOT_FOUND, "no such ticket of yours (it lapses once nobody asks about it)"
            )
        return found

    def _state(self, t: Ticket) -> TicketState:
        matched = t.status == "matched"
        return {
            "ticket": t.ticket,
            "status": t.status,
            "players": t.players,
            "pace": t.pace,
            "bots_after": t.bots_after,
            "waited_ms": max(0, self.clock() - t.created_ms),
            "poll_ms": POLL_MS,
            "room_id": t.room_id if matched else None,
            "seat": t.seat if matched else None,
            "token": t.token if matched else None,
        }
