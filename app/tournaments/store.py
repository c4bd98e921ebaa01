"""What the tournaments need of storage (app/db/tournaments.py), and its values.

Every write that moves an event on is one transaction, and each is guarded so that
it happens once however many processes try (a conditional UPDATE that only one
wins, a primary key that takes a row once): starting an event, finishing a table
(its results, the next tables), claiming a table whose room is to be made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .plan import EventPlan
from .seating import Table
from .standings import Result


@dataclass(frozen=True, slots=True)
class NewEvent:
    id: str
    name: str
    club_id: str | None
    organiser_id: str
    organiser_name: str
    plan: EventPlan
    seed: str
    created_ms: int
    starts_ms: int | None
    boards: Sequence[tuple[str, str]]
    """Duplicate: each board's (seed, seed hash), board 1 first; empty for Swiss."""


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    name: str
    club_id: str | None
    organiser_id: str
    organiser_name: str
    plan: EventPlan
    seed: str
    state: str
    stage: int
    entrants: int
    created_ms: int
    starts_ms: int | None
    started_ms: int | None
    finished_ms: int | None
    ends_ms: int | None = None
    """An arena: when it stops seating tables."""


@dataclass(frozen=True, slots=True)
class Entrant:
    account_id: str
    username: str
    registered_ms: int
    withdrawn_ms: int | None


@dataclass(frozen=True, slots=True)
class Board:
    board: int
    seed: str
    seed_hash: str


@dataclass(frozen=True, slots=True)
class EventTable:
    stage: int
    table_no: int
    seats: Table
    room_id: str | None
    done_ms: int | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything stored about one event, read in one transaction."""

    event: Event
    entrants: list[Entrant]
    boards: list[Board]
    tables: list[EventTable]
    results: list[Result]


@dataclass(frozen=True, slots=True)
class Next:
    """What follows a finished table: the tables to add, and the event's new stage and
    state (unchanged when they equal the snapshot's)."""

    tables: list[EventTable]
    stage: int
    state: str


Seat = Callable[[Snapshot], list[EventTable]]
"""The first stage's tables for an event about to start (app/tournaments/progress.py)."""
Advance = Callable[[Snapshot], Next]
"""What comes after a table that has just finished, given the event with its result."""


@dataclass(frozen=True, slots=True)
class TableToMake:
    """A table whose room this process has claimed and now makes."""

    event: Event
    table: EventTable
    names: dict[str, str]
    """Each seated entrant's username, by account id."""
    board_seed: str | None
    """Duplicate: the board's seed (dealt in the room); None for a Swiss table."""


@dataclass(frozen=True, slots=True)
class TableOfRoom:
    tournament_id: str
    format: str
    stage: int
    table_no: int
    seats: Table
    sealed: bool
    """A duplicate board not yet played by every table of its event."""


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event as a list shows it (a club's page, a profile)."""

    id: str
    name: str
    format: str
    state: str
    club_id: str | None
    created_ms: int
    finished_ms: int | None


class TournamentStore(Protocol):
    async def create(self, event: NewEvent, open_max: int) -> None:
        """Store the event; TournamentRefused ``too_many_tournaments`` when its organiser
        has ``open_max`` events not finished."""

    async def snapshot(self, tournament_id: str) -> Snapshot | None: ...

    async def register(
        self,
        tournament_id: str,
        account_id: str,
        username: str,
        now_ms: int,
        late: bool,
        entries_max: int,
    ) -> None:
        """One more entrant, under the cap, while registering (or running, with
        ``late``), if the account is in fewer than ``entries_max`` unfinished events;
        the refusals are TournamentRefused's."""

    async def withdraw(self, tournament_id: str, account_id: str, now_ms: int) -> None:
        """Before the start the entry goes; after it, it is marked and seated no more."""

    async def start(self, tournament_id: str, now_ms: int, seat: Seat) -> bool:
        """Start the event once: False when it was started (or ended) already."""

    async def table_done(
        self,
        room_id: str,
        match_no: int,
        totals: Sequence[tuple[int, int, bool]],
        now_ms: int,
        advance: Advance,
    ) -> str | None:
        """Store a table's results (seat, total, left) and what follows, once: the
        event's id when this call did it, None when the room is no event's table or
        its results were stored already."""

    async def step(self, tournament_id: str, now_ms: int, advance: Advance) -> bool:
        """Store what follows now in a running event (an arena's newcomer seated, its
        time run out); False when nothing changed or it is not running."""

    async def end_arena(self, tournament_id: str, now_ms: int) -> bool:
        """An arena seats no more tables from now (False: not a running arena)."""

    async def running(self, format: str) -> list[str]:
        """The running events of a format."""

    async def unmade(self, now_ms: int) -> int:
        """Tables a process could claim now (a cheap look before the claim's write)."""

    async def claim_tables(self, now_ms: int, until_ms: int, limit: int) -> list[TableToMake]:
        """Claim up to ``limit`` tables with no room yet and no live claim."""

    async def set_room(self, tournament_id: str, stage: int, table_no: int, room_id: str) -> bool:
        """Record the table's room (once: False when it has one already)."""

    async def anything_to_do(self, now_ms: int) -> bool:
        """Whether any event runs, or is due to start (the loop's first, cheap look)."""

    async def due(self, now_ms: int) -> list[str]:
        """Events still registering whose start time has come."""

    async def cancel(self, tournament_id: str, now_ms: int) -> bool:
        """Cancel an event that has not started (False otherwise)."""

    async def table_of_room(self, room_id: str) -> TableOfRoom | None: ...

    async def of_club(self, club_id: str, limit: int) -> list[EventLine]: ...

    async def of_player(self, username: str, limit: int) -> list[tuple[EventLine, str]]:
        """The events an entrant of this name entered, each with their account id."""
