"""Domain events, stored with the commit that made them and handed on afterwards.

A room's commit says what happened in terms the features care about ("a deal
ended", "a match ended", "a seat was taken", "the room closed") and stores those
events as rows of ``outbox_events`` *in the same transaction* as the moves
(app/db/outbox.py).  A dispatcher (app/outbox/dispatcher.py) hands each stored
event to every subscriber of its kind, at least once, whatever process made it and
whichever process dies: a crash between the commit and the hand-over loses
nothing, because the row is there for the next process to claim.

A few are stored by other transactions than a room's commit, always with the change
they tell of: a correspondence deadline's warning as its row is claimed, a rating's
change with the rating, a turn notice when a player's last page closes mid-turn.
An event may fall due later (``NewEvent.due_ms``): a turn notice waits out the
notice delay before anyone is handed it.

Subscribers register here, in one place (app/features.py builds the registry), by
a name that must stay stable: the dispatcher remembers per event which names have
handled it, so a subscriber that failed is retried without the others running
twice.  A subscriber still sees an event twice when a process dies after the
subscriber's work and before its "handled" row: each must be idempotent by the
event's ``id`` (or by what the event names, e.g. a match's ``room_id`` and
``match_no``).  Events of one room reach a subscriber in order of their ``id`` as
long as none fails; after a failure the others go on, so a subscriber never relies
on seeing a room's events in order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

DEAL_ENDED: Final = "deal_ended"
"""``{"match_no", "deal_no"}``: the deal's last play is stored (its record is whole)."""
MATCH_ENDED: Final = "match_ended"
"""The finished match as app/rooms/domain/match_end.py's ``FinishedMatch`` (JSON)."""
SEAT_CHANGED: Final = "seat_changed"
"""``{"seat", "change"}``: ``taken`` (a person or a bot sat down), ``stand_in`` (a
bot plays for a person who is away past the grace period) or ``returned``."""
ROOM_CLOSED: Final = "room_closed"
"""``{}``: an operator ended the room for everyone."""
TURN_CHANGED: Final = "turn_changed"
"""``{"seq", "turn", "seat", "players", "live", "match_no", "deal_no", "cause"}``: a
person (not a bot, no stand-in) is to move at ``seq`` and no page of theirs is open in
the process that stored it; ``turn`` is the seq their turn began at (a correspondence
room's turn outlasts other seats' events), ``live`` False for a correspondence room.
``cause``: ``move`` (stored with the commit that gave them the turn), ``left`` (their
last page here closed during it) or ``back`` (someone came back to a room nobody here
was at).  Stored only where a turn notice may follow (PUSH on), and due only
``notice_delay`` later (``NewEvent.due_ms``): not an event of every move."""
DEADLINE_NEAR: Final = "deadline_near"
"""``{"seq", "seat", "hours"}``: a correspondence room's deadline for ``seat`` (its turn
began at ``seq``) is ``hours`` (24 or 1) away; stored as the warning's row of
``room_deadlines`` is claimed, in the same transaction."""
RATING_CHANGED: Final = "rating_changed"
"""``{"account_id", "players", "match_no", "seat", "before", "after"}``: a rated
match changed an account's rating at that player count (``before``/``after``:
``{"mu", "sigma", "rating"}``); stored in the rating's own transaction, once per
account and match however often the match is reported."""
KINDS: Final = (
    DEAL_ENDED,
    MATCH_ENDED,
    SEAT_CHANGED,
    ROOM_CLOSED,
    TURN_CHANGED,
    DEADLINE_NEAR,
    RATING_CHANGED,
)

JsonBody = dict[str, "JsonValue"]
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True, slots=True)
class NewEvent:
    """A domain event a commit is about to store (its id comes from the store)."""

    room_id: str
    kind: str
    body: JsonBody
    due_ms: int | None = None
    """Not handed over before this Unix ms (None: at once).  A turn notice is due only
    after the notice delay, and its subscriber then looks whether it still matters."""


def body_int(body: JsonBody, key: str) -> int:
    """A whole number of an event's body (ValueError if it is not one)."""
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"the event's {key!r} is not a whole number: {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A domain event as stored: ``id`` grows with every event stored (not strictly in
    commit order across processes: nothing may rely on ids without gaps)."""

    id: int
    room_id: str
    kind: str
    body: JsonBody
    created_ms: int
    tries: int = 0
    """Hand-overs that failed so far (the next waits longer)."""


Handler = Callable[[StoredEvent], Awaitable[None]]
"""A subscriber's work for one event; raising means "not handled, try again later"."""


@dataclass(frozen=True, slots=True)
class Subscriber:
    name: str
    kinds: frozenset[str]
    handler: Handler


@dataclass(slots=True)
class Subscriptions:
    """Who listens to which kinds of event: filled once, when the server is built."""

    _by_name: dict[str, Subscriber] = field(default_factory=dict)

    def subscribe(self, name: str, kinds: Iterable[str], handler: Handler) -> None:
        """Register ``handler`` for ``kinds`` under ``name`` (unique, stable across
        releases: stored with every event it handled)."""
        wanted = frozenset(kinds)
        unknown = wanted - set(KINDS)
        if unknown:
            raise ValueError(f"no such event kind: {sorted(unknown)}")
        if name in self._by_name:
            raise ValueError(f"a subscriber named {name!r} is already registered")
        if not name or len(name) > 40:
            raise ValueError("a subscriber's name is 1 to 40 characters")
        self._by_name[name] = Subscriber(name, wanted, handler)

    def of_kind(self, kind: str) -> list[Subscriber]:
        """The subscribers of ``kind``, in the order they registered."""
        return [s for s in self._by_name.values() if kind in s.kinds]

    @property
    def names(self) -> Mapping[str, Subscriber]:
        return dict(self._by_name)


class OutboxStore(Protocol):
    """What the dispatcher needs of storage (app/db/outbox.py; the in-memory store's
    MemoryOutbox for tests and for a server without a database)."""

    async def claim_events(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[StoredEvent]: ...

    async def handled_by(self, event_id: int) -> set[str]: ...

    async def mark_handled(self, event_id: int, subscriber: str, now_ms: int) -> None: ...

    async def finish_event(self, event_id: int, owner: str) -> None: ...

    async def release_event(self, event_id: int, owner: str, retry_ms: int) -> None: ...

    async def purge_events(self, before_ms: int) -> int: ...


@dataclass(slots=True)
class _Row:
    event: StoredEvent
    due: int = 0
    done: bool = False
    owner: str | None = None
    until: int | None = None
    tries: int = 0
    handled: set[str] = field(default_factory=set)


class MemoryOutbox:
    """The outbox kept in memory, with the same claims as the database's (one
    process: nothing to share, but the dispatcher's code path is the same)."""

    def __init__(self) -> None:
        self._rows: dict[int, _Row] = {}
        self._next = 1

    def add(self, events: Iterable[NewEvent], now_ms: int) -> None:
        """Store ``events`` (called by the in-memory store's commit)."""
        for e in events:
            self._rows[self._next] = _Row(
                StoredEvent(self._next, e.room_id, e.kind, e.body, now_ms),
                due=now_ms if e.due_ms is None else e.due_ms,
            )
            self._next += 1

    async def add_events(self, events: Sequence[NewEvent], now_ms: int) -> None:
        """Store ``events`` outside a room's commit (``RoomStore.add_events``)."""
        self.add(events, now_ms)

    def _free(self, row: _Row, now_ms: int) -> bool:
        return not row.done and row.due <= now_ms and (row.until is None or row.until < now_ms)

    async def claim_events(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[StoredEvent]:
        due = [r for r in self._rows.values() if self._free(r, now_ms)][:limit]
        for r in due:
            r.owner, r.until = owner, until_ms
        return [replace(r.event, tries=r.tries) for r in due]

    async def handled_by(self, event_id: int) -> set[str]:
        row = self._rows.get(event_id)
        return set(row.handled) if row is not None else set()

    async def mark_handled(self, event_id: int, subscriber: str, now_ms: int) -> None:
        if event_id in self._rows:
            self._rows[event_id].handled.add(subscriber)

    async def finish_event(self, event_id: int, owner: str) -> None:
        row = self._rows.get(event_id)
        if row is not None and row.owner == owner:
            row.done, row.owner, row.until = True, None, None

    async def release_event(self, event_id: int, owner: str, retry_ms: int) -> None:
        row = self._rows.get(event_id)
        if row is not None and row.owner == owner:
            row.owner, row.until, row.tries = None, retry_ms, row.tries + 1

    async def purge_events(self, before_ms: int) -> int:
        gone = [i for i, r in self._rows.items() if r.done and r.event.created_ms < before_ms]
        for i in gone:
            del self._rows[i]
        return len(gone)
