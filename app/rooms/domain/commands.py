"""The commands that change a room: one frozen dataclass each, typed by its answer.

A caller (the WebSocket, an HTTP route, an operator's command, a feature, a timer)
says what it wants as one of these values and hands it to ``RoomService.execute``;
the room service looks its handler up in one table (app/rooms/commands/table.py) and
answers with the command's answer type: ``execute(PlayCard(...))`` is a
``PlayAnswer``, ``execute(NewRoom(...))`` a ``RoomCreated``.  So a new command is a
dataclass here and a handler beside the others, marked ``@handles(TheCommand)``; the room
service itself does not grow, and nothing is passed by position through three layers.

Commands say what was asked, not whether it may be done: the refusals that need the
room's state are the handlers'.  The few checks that need nothing but the command
itself are here, as pure methods (``NewRoom.check``, ``PlayCard``'s own invariant),
so that they can be tested without a room.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.core.errors import ErrorCode, ServiceError
from app.engine.rules import RuleSet

from .options import RoomOptions
from .results import HintAnswer, PlayAnswer, RoomCreated, SeatGiven

A = TypeVar("A")
"""A command's answer.  Invariant: ``Command[PlayAnswer]`` is no ``Command[object]``, so
mypy holds ``execute``'s caller to the answer its command has."""


class Command(Generic[A]):
    """A request to change a room, answered with an ``A`` (``None``: nothing to say but
    that it was done; a refusal is a ``ServiceError``, raised)."""

    __slots__ = ()


K = TypeVar("K", bound=type[Command[Any]])

SENT_AS: dict[str, Callable[..., Command[Any]]] = {}
"""Seat commands a connection asks for with a wire message of their own, by the
message's ``type`` (filled by ``sent_as``)."""


def sent_as(message_type: str) -> Callable[[K], K]:
    """Mark a command that a seated connection sends as the client message
    ``message_type``, whose fields (``type`` aside) are the command's own beside
    ``room_id`` and ``seat``, and which the socket answers with nothing but the room's
    patch.  The WebSocket's table takes its line from here (app/api/ws_messages.py,
    ``seat_commands``): such a message needs no handler of the socket's own.  Refused
    at import when two commands claim one message."""

    def mark(kind: K) -> K:
        if message_type in SENT_AS:
            raise TypeError(f"two commands are sent as {message_type!r}")
        SENT_AS[message_type] = kind
        return kind

    return mark


# ------------------------------------------------------------------ seats


@dataclass(frozen=True, slots=True)
class NewRoom(Command[RoomCreated]):
    """A new room, its maker seated: everything ``create_room`` takes, once.

    Made by the API's ``POST /api/rooms``, by quick pairing for a table it formed, and
    by the deal of the day and "Play this deal yourself" (app/features.py)."""

    players: int
    name: str
    """The maker's name (refused when it is a bot's: app/names.py)."""
    rules: RuleSet
    bots: int
    """How many seats bots take (0 to players - 1)."""
    options: RoomOptions
    creator: str | None = None
    """The address the room came from: its live rooms are capped."""
    seat: int = 0
    """The maker's seat: 0, unless a replayed deal puts them in their own (issue 32);
    then every other seat is a bot's."""
    made_by: str | None = None
    """The creator's stored key (``creator_key``) when the caller holds only that (a
    pairing ticket carries its maker's); derived from ``creator`` otherwise."""
    outside_bot: bool = False
    """The maker is a bot account (issue 51): its seat is marked as a bot's."""
    outside_seats: tuple[tuple[int, str], ...] = ()
    """Other bot accounts seated with the maker, as (seat, username): a ladder table of
    several outside bots (app/ladder/rooms.py), every seat taken at once so that no one
    else can take one of theirs in between.  The built-in bots take every other seat."""

    def check(self) -> None:
        """Refuse a room that cannot be: rules the player count cannot play (RulesError),
        more bots than seats beside the maker, a maker outside seat 0 at a table with
        other people, or bot accounts' seats that are not free seats of the table
        (ServiceError ``bad_request``).  What needs the server (the caps, a bot's name)
        is the handler's."""
        players = self.players
        self.rules.validate_for(players)
        if not 0 <= self.bots <= players - 1:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"bots must be 0..{players - 1}")
        if self.outside_seats:
            self._check_outside_seats()
        elif not 0 <= self.seat < players or (self.seat != 0 and self.bots != players - 1):
            raise ServiceError(ErrorCode.BAD_REQUEST, "the maker sits elsewhere only among bots")

    def _check_outside_seats(self) -> None:
        """Every seat once: the maker's, the bot accounts', then the built-in bots'."""
        seats = [self.seat, *(seat for seat, _ in self.outside_seats)]
        names = [self.name, *(name for _, name in self.outside_seats)]
        if not self.outside_bot:
            raise ServiceError(ErrorCode.BAD_REQUEST, "bot accounts sit with a bot account only")
        if len(set(seats)) != len(seats) or not all(0 <= s < self.players for s in seats):
            raise ServiceError(ErrorCode.BAD_REQUEST, "each bot account needs a seat of its own")
        if len(set(names)) != len(names):
            raise ServiceError(ErrorCode.BAD_REQUEST, "each seat needs a name of its own")
        if self.bots != self.players - len(seats):
            raise ServiceError(ErrorCode.BAD_REQUEST, "built-in bots take every other seat")


@dataclass(frozen=True, slots=True)
class JoinRoom(Command[SeatGiven]):
    """A person takes the first free seat."""

    room_id: str
    name: str
    distinct: bool = False
    """The person chose the name (the API), so it may not look like a seated person's;
    quick pairing seats the names its people queued under."""
    outside_bot: bool = False
    """The seat goes to a bot account (issue 51: it joined with its token, a room's
    player seated it by name, a challenge): every view marks it as a bot's."""


# ------------------------------------------------------------------ play


@dataclass(frozen=True, slots=True)
class PlayCard(Command[PlayAnswer]):
    """A card from the seat to move, and what it takes.

    A person's play carries its client's id (``play_id``), a move the server makes its
    own (``server``, made for the position at ``at_seq``): never both, so a client can
    never send the id of a server move (``key``)."""

    room_id: str
    seat: int | None
    """None: a spectator (refused)."""
    card: str
    take: tuple[str, ...] = ()
    play_id: str | None = None
    """The client's id of the play: a resend is answered with the first one's seq."""
    server: str | None = None
    """The id of a move the server makes (``srv:{kind}:{seq}``), instead of a client's."""
    at_seq: int | None = None
    """A server move is for the room at this seq, and refused once it is past it."""

    def __post_init__(self) -> None:
        if self.server is not None and self.play_id is not None:
            raise ValueError("a play is the server's or a client's, not both")
        if not isinstance(self.take, tuple):  # a list from an untyped caller: the event's
            object.__setattr__(self, "take", tuple(self.take))

    @property
    def key(self) -> str | None:
        """The id the play is stored under: the server's, or ``{seat}:{client id}`` (a
        seat, then a colon: never ``srv:``, whatever the client sends); None without
        an id (such a play is never recognised as a resend)."""
        if self.server is not None:
            return self.server
        return f"{self.seat}:{self.play_id}" if self.play_id is not None else None


# ------------------------------------------------------------------ the match


@sent_as("rematch")
@dataclass(frozen=True, slots=True)
class Rematch(Command[None]):
    """Offer a rematch of the finished match, or accept the open offer (issue 33)."""

    room_id: str
    seat: int | None


@sent_as("rematch_decline")
@dataclass(frozen=True, slots=True)
class DeclineRematch(Command[None]):
    """Decline the open rematch offer (its offerer: withdraw it)."""

    room_id: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class SetAutoplay(Command[None]):
    """A bot plays for a person's seat (``on``: away, out of time), or stops."""

    room_id: str
    seat: int
    on: bool


@sent_as("vacation")
@dataclass(frozen=True, slots=True)
class SetVacation(Command[None]):
    """A seat's vacation on or off in a correspondence room (issue 32)."""

    room_id: str
    seat: int | None
    on: bool


@dataclass(frozen=True, slots=True)
class PressContinue(Command[None]):
    """The seat has seen the deal that ended: the next one may start (issue 12)."""

    room_id: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class ShowDeal(Command[None]):
    """The seat's client shows deal ``deal_no`` of match ``match_no``: a first turn that
    waited for it may start its clock (issue 47; the wire's ``deal_shown``, written
    as a ``DealShown`` event)."""

    room_id: str
    seat: int | None
    match_no: int
    deal_no: int


@dataclass(frozen=True, slots=True)
class CloseRoom(Command[None]):
    """An operator ends the room for everyone (app/ops, the admin page)."""

    room_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class SetSpectatorChat(Command[None]):
    """The host shows (``on``) or hides spectators' chat to the players while the match
    is played (issue 12; an ``option`` event, so every process and every later reload
    agree).  Asked by the chat (app/social/chat.py)."""

    room_id: str
    seat: int | None
    """Who asks: only the host's seat may (``not_host``)."""
    on: bool


# ------------------------------------------------------------------ against bots


@sent_as("takeback")
@dataclass(frozen=True, slots=True)
class TakeBack(Command[int]):
    """The one person at a table of bots takes back their last play (issue 33); the
    answer is the room's seq after it."""

    room_id: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class AskHint(Command[HintAnswer]):
    """The strong bot's move for the person's position, from their own information."""

    room_id: str
    seat: int | None
