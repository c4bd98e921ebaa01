"""What the room service needs from storage.

The service speaks to storage only through this protocol; ``app/db`` implements
it (SQLite or PostgreSQL).  Storage failures come in two kinds the service must
tell apart (both in ``app/core/errors.py``, since every feature's store raises
them too): ``Conflict`` (another writer advanced the room first: reload and
revalidate) and ``Unavailable`` (the database did not answer: nothing is known
to be stored, the room's memory must not run ahead, and the caller may retry).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from app.core.outbox import NewEvent
from app.wire.view import PreviousDeal

from .domain.correspondence import DeadlineSpec
from .domain.events import RoomEvent
from .domain.record_types import StoredDeal
from .domain.state import RoomState


class MatchTotals(TypedDict):
    """The match standing after a deal ended: what persistence stores with it."""

    match_no: int
    cumulative: list[int]
    deals_played: int
    finished: bool
    winners: list[int] | None


@dataclass(slots=True)
class Written:
    """One event plus what persistence needs to know about its effect."""

    event: RoomEvent
    token_hash: str | None = None
    """For a seat event: the hash of the seat's new token."""
    finished_deal: PreviousDeal | None = None
    """For the play that ended a deal: its scores and totals."""
    match_totals: MatchTotals | None = None
    """For the play that ended a deal: the match standing after it."""
    outbox: tuple[NewEvent, ...] = ()
    """The domain events it produced (domain/outcomes.py), stored in the same
    transaction for the outbox's dispatcher (app/core/outbox.py)."""


@dataclass(frozen=True, slots=True)
class DueDeadline:
    """A ``room_deadlines`` row this process claimed (app/rooms/deadline_poller.py)."""

    room_id: str
    kind: str
    seq: int
    seat: int
    due_ms: int


class RoomStore(Protocol):
    async def create_room(
        self,
        state: RoomState,
        written: Sequence[Written],
        creator: str | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        """Store a new room and its first events in one transaction (Conflict if its
        code is taken), with its deadlines (``commit_events``)."""

    async def live_rooms(self, creator: str | None) -> tuple[int, int]: ...

    async def commit_events(
        self,
        room_id: str,
        expected_seq: int,
        status: str,
        written: Sequence[Written],
        stored_status: str | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        """Append ``written`` if the room is still at ``expected_seq`` (Conflict if not)
        and set its status; ``stored_status`` is the status the writer knows is stored
        at ``expected_seq``, when it knows it (then an unchanged status is not written
        again).  ``deadlines``, unless None (a live room), replace the room's rows of
        ``room_deadlines`` in the same transaction (issue 32)."""

    async def load_state(self, room_id: str) -> RoomState | None: ...

    async def events_after(self, room_id: str, seq: int) -> list[RoomEvent]: ...

    async def room_seqs(self, room_ids: Sequence[str]) -> dict[str, int]: ...

    async def seat_for_token(self, room_id: str, token_hash: str) -> int | None: ...

    async def play_seq(self, room_id: str, client_id: str) -> int | None:
        """The seq of the room's play stored with this id (None: no such play)."""

    async def room_id_for_code(self, code: str) -> str | None:
        """The room of a short code (None: no such room; RoomPurged: it was purged)."""

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        """The stored record of a finished deal (None: not over, or no such deal)."""

    async def take_lease(
        self, room_id: str, owner: str, now_ms: int, until_ms: int
    ) -> tuple[bool, int | None]: ...

    async def renew_leases(
        self, owner: str, room_ids: Sequence[str], until_ms: int
    ) -> set[str]: ...

    async def release_leases(self, owner: str, room_ids: Sequence[str]) -> None: ...

    # correspondence rooms' deadlines (issue 32): app/rooms/deadline_poller.py

    async def claim_deadlines(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[DueDeadline]:
        """Rows due by ``now_ms`` that no live claim holds, each claimed once across
        processes: a ``move`` row for ``owner`` until ``until_ms`` (the next write of
        the room replaces it), a warning row taken away and stored in its place, in
        the same transaction, as a ``deadline_near`` domain event (app/core/outbox.py:
        handed on at least once, told once by the notifier's row)."""

    async def release_deadline(
        self, room_id: str, kind: str, seq: int, owner: str, until_ms: int | None
    ) -> None:
        """Give a claimed row up (``until_ms``: not to be claimed again before then)."""

    async def drop_deadline(self, room_id: str, kind: str, seq: int) -> None:
        """Delete a row the room no longer waits for (still at ``seq``)."""

    async def next_deadline(self) -> int | None:
        """The earliest ``due_ms`` of any row (None: none)."""

    # domain events that no commit of the room carries (app/core/outbox.py)

    async def add_events(self, events: Sequence[NewEvent], now_ms: int) -> None:
        """Store ``events`` in a transaction of their own (a turn notice when a
        player's last page closes during their turn: app/rooms/turn_notice.py)."""
