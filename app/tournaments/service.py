"""The tournaments as the API and the rooms' events ask them (issue 49).

An event is created by a signed-in person (for a club: one of its organisers),
takes registrations until its organiser starts it (or its start time comes), then
seats its first tables.  Every later step happens once, whichever process takes it:

- a table's match ends (a ``match_ended`` domain event, handed over at least once):
  ``match_ended`` stores its results and the tables that follow in one transaction
  that only the first delivery gets through (app/db/tournament_writes.py);
- a table without a room is claimed by one process for ``CLAIM_MS`` and its room
  made; a process that dies meanwhile leaves the claim to lapse, and another makes
  the room (the half-made one, if any, is never linked to the event and expires as
  any room nobody plays);
- the loop (``tick``, every few seconds in every process) starts events whose time
  has come, seats Swiss rounds whose set time has come, ends or fills arenas, and
  makes the rooms of claimed tables.

What a duplicate board holds stays sealed until every table has played it
(``sealed``): its results, seeds and records, and its rooms to anyone not seated.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TypedDict

from app.clubs.rules import Role
from app.clubs.store import Membership
from app.core.clock import now_ms
from app.core.errors import Unavailable, unavailable
from app.limits.rate import KeyedRateLimit
from app.names import bidi_control
from app.rooms.domain.match_end import FinishedMatch
from app.text import refused_character

from .errors import TournamentCode, TournamentRefused
from .feed import EventFeeds
from .page import standings_of
from .plan import EventPlan
from .progress import advance, first_tables
from .rooms import TableRooms
from .store import EventLine, NewEvent, Snapshot, TournamentStore

log = logging.getLogger("krypkasino.tournaments")

CLAIM_MS = 30_000
"""How long a process may take to make a claimed table's room."""
OPEN_MAX = 5
"""Unfinished events one account may organise at once."""
ENTRIES_MAX = 10
"""Unfinished events one account may be entered in at once."""
ACTIONS_PER_MINUTE = 20.0
"""Creations, registrations and withdrawals per account (then 429)."""
NAME_MAX = 60
LATE = ("swiss", "arena")
"""Formats that take entrants after their start (a duplicate event's tables are drawn
once)."""
LISTED = 50
PROFILE_LISTED = 20
"""Events a club's page or a profile lists at most."""
Membership_ = Callable[[str, str], Awaitable[Membership | None]]


@dataclass(frozen=True, slots=True)
class Person:
    """A signed-in account as the tournaments see it."""

    account_id: str
    username: str
    bot: bool = False


def check_event_name(name: str) -> str:
    """The name as stored (NFC, spaces collapsed): plain text of 3 to NAME_MAX
    characters, or ``bad_tournament`` saying why not."""
    shown = " ".join(unicodedata.normalize("NFC", name).split())
    problem = refused_character(name) or bidi_control(shown)
    if problem is None and not 3 <= len(shown) <= NAME_MAX:
        problem = f"an event's name is 3 to {NAME_MAX} characters"
    if problem is None and ("<" in shown or ">" in shown or "&#" in shown):
        problem = "an event's name is plain text: no '<', '>' or character references"
    if problem is not None:
        raise TournamentRefused(TournamentCode.BAD_TOURNAMENT, f"name: {problem}")
    return shown


class EventLineJson(TypedDict):
    id: str
    name: str
    format: str
    state: str
    created_ms: int
    finished_ms: int | None


class ClubEventJson(EventLineJson):
    winners: list[str]
    """Who stands first once the event is finished (ties share it); empty before."""


class PlayedEventJson(EventLineJson):
    place: int | None
    """The entrant's place once the event is finished (None before)."""


def line_json(e: EventLine) -> EventLineJson:
    return {
        "id": e.id,
        "name": e.name,
        "format": e.format,
        "state": e.state,
        "created_ms": e.created_ms,
        "finished_ms": e.finished_ms,
    }


def board_hash(seed: str) -> str:
    """The published commitment to a board's seed (SHA-256 of its text)."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class Tournaments:
    def __init__(
        self,
        store: TournamentStore,
        rooms: TableRooms,
        membership: Membership_,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.membership = membership
        self.clock = clock
        self.rate = KeyedRateLimit(ACTIONS_PER_MINUTE)
        self.feeds = EventFeeds(store.snapshot)
        """Live pages for the event's watchers (``/ws/tournaments/{id}``)."""

    def _spend(self, who: Person) -> None:
        if who.bot:
            raise TournamentRefused(
                TournamentCode.TOURNAMENT_FORBIDDEN, "tournaments are for people, not bot accounts"
            )
        if not self.rate.allow(who.account_id):
            wait = self.rate.retry_after(who.account_id)
            raise TournamentRefused(
                TournamentCode.TOURNAMENT_RATE_LIMITED,
                f"too many tournament actions from this account; try again in {wait} s",
            )

    async def snapshot(self, tournament_id: str) -> Snapshot:
        """The event as stored (404 ``no_such_tournament``)."""
        return await self._snapshot(tournament_id)

    async def _snapshot(self, tournament_id: str) -> Snapshot:
        try:
            snap = await self.store.snapshot(tournament_id)
        except Unavailable as exc:
            raise unavailable() from exc
        if snap is None:
            raise TournamentRefused(TournamentCode.NO_SUCH_TOURNAMENT, "no such tournament")
        return snap

    async def _may_organise(self, club_id: str, who: Person) -> None:
        found = await self.membership(club_id, who.account_id)
        if found is None or found.closed or found.role not in (Role.OWNER, Role.ORGANISER):
            raise TournamentRefused(
                TournamentCode.TOURNAMENT_FORBIDDEN,
                "a club's events are made by its owner and organisers",
            )

    async def create(
        self,
        who: Person,
        name: str,
        plan: EventPlan,
        club_id: str | None = None,
        starts_ms: int | None = None,
    ) -> str:
        """A new event, registering; its id."""
        shown = check_event_name(name)
        plan.check(club_id)
        now = self.clock()
        if starts_ms is not None and not now <= starts_ms <= now + 366 * 86_400_000:
            raise TournamentRefused(
                TournamentCode.BAD_TOURNAMENT, "starts_ms must be within the coming year"
            )
        self._spend(who)
        if club_id is not None:
            await self._may_organise(club_id, who)
        seeds = [secrets.token_hex(16) for _ in range(plan.boards)]
        event = NewEvent(
            id=secrets.token_hex(8),
            name=shown,
            club_id=club_id,
            organiser_id=who.account_id,
            organiser_name=who.username,
            plan=plan,
            seed=secrets.token_hex(16),
            created_ms=now,
            starts_ms=starts_ms,
            boards=[(s, board_hash(s)) for s in seeds] if plan.format == "duplicate" else [],
        )
        await self._write(self.store.create(event, OPEN_MAX))
        return event.id

    async def _write(self, step: Awaitable[object]) -> object:
        try:
            return await step
        except Unavailable as exc:
            raise unavailable() from exc

    async def register(self, tournament_id: str, who: Person) -> None:
        snap = await self._snapshot(tournament_id)
        event = snap.event
        if event.plan.entry == "club" and event.club_id is not None:
            found = await self.membership(event.club_id, who.account_id)
            if found is None or found.closed or found.role is None:
                raise TournamentRefused(
                    TournamentCode.CLUB_EVENT, "this event is for its club's members"
                )
        if event.plan.entry == "invite" and who.username.lower() not in event.plan.invited:
            raise TournamentRefused(
                TournamentCode.NOT_INVITED, "this event is for the people its organiser invited"
            )
        self._spend(who)
        late = event.plan.format in LATE  # seated next round, or as soon as a table frees
        await self._write(
            self.store.register(
                tournament_id, who.account_id, who.username, self.clock(), late, ENTRIES_MAX
            )
        )
        if event.plan.format == "arena" and event.state == "running":
            await self._step(tournament_id)

    async def withdraw(self, tournament_id: str, who: Person) -> None:
        self._spend(who)
        await self._write(self.store.withdraw(tournament_id, who.account_id, self.clock()))

    async def _organiser(self, snap: Snapshot, who: Person) -> None:
        if snap.event.organiser_id == who.account_id:
            return
        if snap.event.club_id is not None:
            await self._may_organise(snap.event.club_id, who)
            return
        raise TournamentRefused(
            TournamentCode.TOURNAMENT_FORBIDDEN, "only the event's organiser may do this"
        )

    async def start(self, tournament_id: str, who: Person | None) -> None:
        """Start the event (``who`` None: its start time came); 409 when it has started."""
        snap = await self._snapshot(tournament_id)
        if who is not None:
            await self._organiser(snap, who)
        if snap.event.state != "registering":
            raise TournamentRefused(TournamentCode.NOT_REGISTERING, "the event has started")
        if len([e for e in snap.entrants if e.withdrawn_ms is None]) < 2:
            raise TournamentRefused(
                TournamentCode.TOO_FEW_ENTRANTS, "an event needs two entrants or more"
            )
        now = self.clock()
        started = await self._write(self.store.start(tournament_id, now, first_tables))
        if started:
            await self.seat_tables()

    async def cancel(self, tournament_id: str, who: Person) -> None:
        snap = await self._snapshot(tournament_id)
        await self._organiser(snap, who)
        if not await self._write(self.store.cancel(tournament_id, self.clock())):
            raise TournamentRefused(
                TournamentCode.NOT_REGISTERING, "only an event not yet started is cancelled"
            )

    async def end_arena(self, tournament_id: str, who: Person) -> None:
        """Its organiser ends an arena early: no table is seated from now; the ones in
        play finish and count (409 ``not_registering`` for anything but a running arena)."""
        snap = await self._snapshot(tournament_id)
        await self._organiser(snap, who)
        if not await self._write(self.store.end_arena(tournament_id, self.clock())):
            raise TournamentRefused(
                TournamentCode.NOT_REGISTERING, "only a running arena is ended early"
            )
        await self._step(tournament_id)

    async def match_ended(self, match: FinishedMatch) -> None:
        """A room's match ended (the outbox's subscriber): a table's results, once."""
        totals = [(s.seat, s.total, s.left) for s in match.seats]
        now = self.clock()
        done = await self.store.table_done(
            match.room_id, match.match_no, totals, now, partial(advance, now_ms=now)
        )
        if done is not None:
            await self.seat_tables()

    async def seat_tables(self) -> int:
        """Make the rooms of the tables this process can claim; how many it made."""
        now = self.clock()
        if not await self.store.unmade(now):
            return 0
        made = 0
        for table in await self.store.claim_tables(now, now + CLAIM_MS, 20):
            room_id = await self.rooms.make(table)
            t = table.table
            if await self.store.set_room(table.event.id, t.stage, t.table_no, room_id):
                made += 1
        return made

    async def _step(self, tournament_id: str) -> None:
        now = self.clock()
        if await self._write(self.store.step(tournament_id, now, partial(advance, now_ms=now))):
            await self.seat_tables()

    async def tick(self) -> None:
        """One round of the loop: start what is due, end the arenas whose time is up (or
        seat whoever waits), seat the Swiss rounds whose time has come, make the rooms
        that are missing."""
        now = self.clock()
        if not await self.store.anything_to_do(now):
            return
        for running in ("arena", "swiss"):  # an arena's time or waiting people; a set round
            for tournament_id in await self.store.running(running):
                snap = await self._snapshot(tournament_id)
                nxt = advance(snap, now)  # a read first: most rounds have nothing to do
                if nxt.tables or nxt.state != snap.event.state:
                    await self._step(tournament_id)
        for tournament_id in await self.store.due(self.clock()):
            try:
                await self.start(tournament_id, None)
            except TournamentRefused as exc:
                if exc.code == TournamentCode.TOO_FEW_ENTRANTS:
                    await self.store.cancel(tournament_id, self.clock())
        await self.seat_tables()

    async def of_club(self, club_id: str) -> list[ClubEventJson]:
        """A club's events, newest first, each finished one with its winners (its page
        lists them: its members' results, recomputed from the stored ones)."""
        out: list[ClubEventJson] = []
        for line in await self._read(self.store.of_club(club_id, LISTED)):
            winners: list[str] = []
            if line.state == "finished":
                snap = await self._snapshot(line.id)
                names = {e.account_id: e.username for e in snap.entrants}
                winners = [names[r.entrant] for r in standings_of(snap) if r.place == 1]
            out.append({**line_json(line), "winners": winners})
        return out

    async def of_player(self, username: str) -> list[PlayedEventJson]:
        """The events a person entered, newest first, each with their place once it is
        finished (their profile lists them; the place is recomputed from the results)."""
        try:
            found = await self.store.of_player(username, PROFILE_LISTED)
        except Unavailable as exc:
            raise unavailable() from exc
        out: list[PlayedEventJson] = []
        for line, account_id in found:
            place = None
            if line.state == "finished":
                snap = await self._snapshot(line.id)
                rows = standings_of(snap)
                place = next((r.place for r in rows if r.entrant == account_id), None)
            out.append({**line_json(line), "place": place})
        return out

    async def _read(self, step: Awaitable[list[EventLine]]) -> list[EventLine]:
        try:
            return await step
        except Unavailable as exc:
            raise unavailable() from exc

    async def sealed(self, room_id: str) -> bool:
        """Whether the room is a duplicate table whose board some table has still to
        play: its record, replay and analysis are refused, and only its seats watch."""
        try:
            found = await self.store.table_of_room(room_id)
        except Unavailable as exc:
            raise unavailable() from exc
        return found is not None and found.sealed
