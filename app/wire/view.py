"""The view: what a ``snapshot`` carries and ``patch``es change (docs/protocol.md).

The engine's part of it is typed in ``app/engine/view_types.py``; the room adds its
seats, settings, clocks and the last deal's result.  ``View`` is what a connection
holds at every seq: the protocol's JSON Schema describes ``Snapshot.view`` with it
(``app/wire/schema.py``), and the tests check every snapshot, and every view after a
patch is applied, against that schema.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from app.engine.view_types import (
    AwardJson,
    PrivateView,
    PublicMatchView,
    ScoreJson,
)


class PlayedFor(TypedDict):
    """A play the server made for a seat since its player last played themselves."""

    card: str
    by: Literal["clock", "standin"]
    deal_no: int


class SeatView(TypedDict):
    seat: int
    name: str | None
    bot: bool
    """A bot seat from the room's creation."""
    outside_bot: bool
    """Taken by a bot account (issue 51): a program playing over the network."""
    autoplay: bool
    """A bot plays for this person while they are away or out of time."""
    played_for: list[PlayedFor]


TakebackMode = Literal["off", "until_bot", "always"]
"""When the one person at a table of bots may take back their last play (issue 33):
never, until the next bot has played (the default), or always (the bots' plays after
it are undone with it)."""


Pace = Literal["live", "correspondence"]
"""How a room is played (issue 32): live, or over days with a deadline per move."""


class RoomOptionsView(TypedDict):
    """The room's settings that are not rules (docs/protocol.md)."""

    bot_level: str
    bot_delay: float
    turn_clock: float | None
    grace: float
    deal_pause: float
    time_bank: float | None
    time_increment: float
    public: bool
    spectator_chat: bool
    takeback: TakebackMode
    hints: bool
    """Whether the view carries the "tabbe på 9" call (``sweep_call``, issue 31)."""
    rated: bool
    """Finished matches update the players' ratings (issue 34)."""
    pace: Pace
    days_per_move: int | None
    """A correspondence room's days per move (1, 2, 3, 5 or 7); null in a live room."""
    challenge: bool
    """A challenge room, the deal of the day (issue 32): played once, unaided, no rematch."""


class AssistView(TypedDict):
    """What the one person playing against bots may ask for now (issue 33)."""

    seat: int
    """The person's seat (only its connections are offered the buttons)."""
    takeback: bool
    """A take-back would be accepted now."""
    hint: bool
    """A hint would be given now (the person is to move)."""


class ClockView(TypedDict):
    """The seat to move and when the server plays for it (Unix ms)."""

    seat: int
    deadline: int


class VacationView(TypedDict):
    """A seat's vacation in a correspondence room (issue 32): ``left`` ms of it when it
    was last switched (so ``left - (now - since)`` while on), ``since`` when it was
    switched on (Unix ms; null: not on vacation)."""

    left: int
    since: int | None


class BetweenView(TypedDict):
    """A deal is over and the room waits for Continue: who pressed it, until when."""

    ready: list[int]
    deadline: int


class RematchView(TypedDict):
    """The open rematch offer (issue 33): who offered, who accepted (the offerer too),
    and when it lapses unanswered (Unix ms)."""

    by: int
    accepted: list[int]
    deadline: int


class RematchEndedView(TypedDict):
    """How the latest rematch offer ended without a new match: ``declined`` by
    ``seat`` (the offerer's own seat: withdrawn), or ``expired`` (``seat`` null)."""

    by: int
    reason: Literal["declined", "expired"]
    seat: int | None


class ClosedView(TypedDict):
    reason: str
    at: str | None


class PreviousDeal(TypedDict):
    """The deal that ended last, with its seed (the commitment's proof, R2)."""

    deal_no: int
    scores: list[ScoreJson]
    totals: list[int]
    award: AwardJson
    seed: str | None
    commitment: str | None
    total_points: int


class RoomPublicView(PublicMatchView):
    """The part of the view every connection of a room shares."""

    room_id: str
    code: str
    match_no: int
    seats: list[SeatView]
    commitment: str | None
    """SHA-256 of the deal's seed, shown while the deal is played (R2)."""
    previous_deal: PreviousDeal | None
    options: RoomOptionsView
    clock: ClockView | None
    closed: ClosedView | None
    between: BetweenView | None
    rematch: RematchView | None
    """Once the match is finished: the open rematch offer, else null."""
    rematch_ended: RematchEndedView | None
    """The latest offer declined or lapsed (until the next offer or match), else null."""
    banks: list[int] | None
    """Each seat's Fischer time bank in ms at the start of its turn (None: none)."""
    assist: AssistView | None
    """Take-back and hint, only where exactly one person plays against bots (else None)."""
    vacation: list[VacationView] | None
    """Per seat, in a correspondence room: its vacation (null in a live room)."""


class View(RoomPublicView, PrivateView):
    """One connection's whole view."""
