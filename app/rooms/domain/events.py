"""The vocabulary of a room's log: one frozen dataclass per kind of event.

A room changes only by these events (``RoomState.apply``); every process, the
stores (app/rooms/memory.py, app/db) and the state machine speak them.  How an
event is stored (a ``kind`` and a few columns, the rest as JSON ``data``) is the
codec's business (app/rooms/domain/event_codec.py), shared by the state, the
in-memory store and the database, so a stored row is parsed in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from .assist_events import HINT as HINT
from .assist_events import TAKEBACK as TAKEBACK
from .assist_events import HintGiven as HintGiven
from .assist_events import TakenBack as TakenBack

SEAT = "seat"
MATCH = "match"
DEAL = "deal"
PLAY = "play"
AUTOPLAY = "autoplay"
CLOSE = "close"
READY = "ready"
"""A player pressed Continue between deals (issue 12: the next deal waits for them)."""
SHOWN = "shown"
"""A player's client showed a deal that started while they had not pressed Continue
(issue 47: their first turn of it is timed from then, domain/first_turns.py)."""
OPTION = "option"
"""The host changed a room setting during play (``spectator_chat``)."""
REMATCH_OFFER = "rematch_offer"
REMATCH_ACCEPT = "rematch_accept"
REMATCH_DECLINE = "rematch_decline"
REMATCH_EXPIRE = "rematch_expire"
"""A rematch is offered and accepted, not imposed (issue 33): the next match starts
once every seated person accepted; a decline or the offer's deadline withdraws it."""

VACATION = "vacation"
"""A seat's vacation switched on or off in a correspondence room (issue 32)."""

MovedBy = Literal["clock", "standin"]
CLOCK_MOVE: Final = "clock"
STANDIN_MOVE: Final = "standin"
"""What ``by`` says of a move the server made for a person: their clock ran out, or a
stand-in bot played while they were away (``srv:clock:*``, ``srv:standin:*`` ids)."""
CHANGEABLE_OPTIONS = ("spectator_chat",)
"""Room options an ``option`` event may change."""


def move_by(client_id: str | None) -> MovedBy | None:
    """Who made a play for its seat, from its stored id: None for the seat's own player
    (or the seat's own bot), ``clock`` or ``standin`` for the server."""
    if client_id is None or not client_id.startswith("srv:"):
        return None
    kind = client_id.split(":")[1]
    if kind == CLOCK_MOVE:
        return CLOCK_MOVE
    if kind == STANDIN_MOVE:
        return STANDIN_MOVE
    return None


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A person or a bot took a seat."""

    KIND: ClassVar[str] = SEAT
    seat: int
    name: str
    bot: bool = False
    """A bot seat from the room's creation (a person's seat a bot plays for is
    ``AutoplaySet``)."""
    outside_bot: bool = False
    """Taken by a bot account (issue 51: a program playing over the network), so that
    every view marks it as a bot's from the moment it is taken; stored only when true,
    so a seat of a row written before reads as a person's."""


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """Every seat is taken (or a rematch): a match over the dealer rotation begins."""

    KIND: ClassVar[str] = MATCH
    match_no: int
    first_dealer: int
    """The dealer of the match's first deal (R2.1, drawn at random)."""
    players: int


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal begins: its seed decides the shuffled pack (R2; the seed's SHA-256 is
    shown while the deal is played, the seed once it is over)."""

    KIND: ClassVar[str] = DEAL
    seed: str
    match_no: int
    deal_no: int
    dealer: int
    copies: int
    """Packs in play (V2: one or two)."""
    players: int


@dataclass(frozen=True, slots=True)
class Played:
    """A card played from the hand of the seat to move (R3, R4)."""

    KIND: ClassVar[str] = PLAY
    seat: int
    card: str
    take: tuple[str, ...] = ()
    """The table cards taken (empty: a creep)."""
    client_id: str | None = None
    """``{seat}:{client's id}`` of a player's move, ``srv:{kind}:{seq}`` of one the server
    made: a resent play is known by it and never played twice."""


@dataclass(frozen=True, slots=True)
class AutoplaySet:
    """A bot starts (``on``) or stops playing for a person's seat."""

    KIND: ClassVar[str] = AUTOPLAY
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class VacationSet:
    """A seat's vacation starts (``on``) or ends in a correspondence room: while on,
    its clock stands still (domain/correspondence.py)."""

    KIND: ClassVar[str] = VACATION
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class ReadyPressed:
    """A player pressed Continue after a deal ended."""

    KIND: ClassVar[str] = READY
    seat: int


@dataclass(frozen=True, slots=True)
class DealShown:
    """A player's client shows the deal in play (only written while the seat's first
    turn waits for it: ``FirstTurns.awaits``)."""

    KIND: ClassVar[str] = SHOWN
    seat: int


@dataclass(frozen=True, slots=True)
class OptionChanged:
    """The host changed a room setting during play (only CHANGEABLE_OPTIONS)."""

    KIND: ClassVar[str] = OPTION
    spectator_chat: bool | None = None
    """Whether players see spectators' chat while the match is played (None: not
    changed by this event)."""


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """A seated player offers the others a new match once this one is over."""

    KIND: ClassVar[str] = REMATCH_OFFER
    seat: int
    timeout_ms: int
    """How long the offer stays open, counted from the event's ``at`` (stored with the
    offer, so its deadline is the same in every process, after a restart, and after
    the server's setting changed)."""


@dataclass(frozen=True, slots=True)
class RematchAccepted:
    """A seated player accepted the open rematch offer."""

    KIND: ClassVar[str] = REMATCH_ACCEPT
    seat: int


@dataclass(frozen=True, slots=True)
class RematchDeclined:
    """A seated player declined the open offer (the offerer: withdrew it): it is gone."""

    KIND: ClassVar[str] = REMATCH_DECLINE
    seat: int


@dataclass(frozen=True, slots=True)
class RematchExpired:
    """Nobody answered the open offer in time: it is gone."""

    KIND: ClassVar[str] = REMATCH_EXPIRE


@dataclass(frozen=True, slots=True)
class RoomClosed:
    """An operator ended the room for everyone (``krypkasino rooms close``, /admin)."""

    KIND: ClassVar[str] = CLOSE
    reason: str
    at: str | None = None
    """When, as an ISO time (shown to the players)."""


EventBody = (
    SeatTaken
    | MatchStarted
    | DealStarted
    | Played
    | AutoplaySet
    | VacationSet
    | ReadyPressed
    | DealShown
    | OptionChanged
    | RematchOffered
    | RematchAccepted
    | RematchDeclined
    | RematchExpired
    | RoomClosed
    | TakenBack
    | HintGiven
)
"""What an event says; ``RoomEvent`` adds where it stands in the log and when."""


@dataclass(frozen=True, slots=True)
class RoomEvent:
    """One change of a room; ``seq`` is its position in the room's gap-free log."""

    seq: int
    body: EventBody
    at: int = 0
    """When the event was written, in Unix milliseconds (0: not known, for events
    stored before this was recorded).  Timers count from it, so every process and
    every reload agrees on when a clock runs out or a bot is due."""

    @property
    def kind(self) -> str:
        return self.body.KIND

    @property
    def client_id(self) -> str | None:
        """A play's id (None for every other event)."""
        body = self.body
        return body.client_id if isinstance(body, Played) else None
