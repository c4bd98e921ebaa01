"""What the rooms' commands and reads answer, typed (the API serves them as they are).

A command's answer is a frozen dataclass (``made.room_id``, not ``made["room_id"]``):
each command names its answer type (app/rooms/domain/commands.py), so a caller that
reads a field the answer does not have fails mypy, not a player.  FastAPI serves them
through the routes' response models (read by attribute).  A read's answer
(``RoomSummary``) stays a ``TypedDict``: it is JSON built from the views' own parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from app.engine.rules import RuleValues
from app.wire.view import ClosedView, RoomOptionsView


@dataclass(frozen=True, slots=True)
class PlayAnswer:
    """A committed play's seq; ``duplicate`` when its id had been played already."""

    seq: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class SeatGiven:
    """A seat and its secret token (only its hash is stored)."""

    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class RoomCreated:
    """A new room, and its maker's seat and token."""

    room_id: str
    code: str
    seat: int
    token: str
    others: tuple[tuple[int, str], ...] = ()
    """The seat and token of each other bot account seated with the maker
    (``NewRoom.outside_seats``)."""


@dataclass(frozen=True, slots=True)
class TableFacts:
    """A room as the talk beside it needs it (app/social/chat.py): the names seated, by
    seat (None: a free seat), whether a match is being played, and whether spectators'
    lines reach the players now (the host's ``spectator_chat`` option)."""

    names: tuple[str | None, ...]
    playing: bool
    spectator_chat: bool


class SeatSummary(TypedDict):
    seat: int
    name: str | None
    bot: bool
    outside_bot: bool
    """Taken by a bot account (issue 51)."""
    connected: bool


class RoomSummary(TypedDict):
    """GET /api/rooms/{id}: the room as anyone may see it."""

    room_id: str
    code: str
    status: str
    players: int
    seats: list[SeatSummary]
    rules: RuleValues
    options: RoomOptionsView
    deal_no: int
    deals_total: int | None
    cumulative: list[int]
    match_no: int
    closed: ClosedView | None


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A hint (issue 33): the strong bot's move for the asking person's position, and the
    room's seq it is for.  Sent to the asking connection only: it names a card in hand."""

    seq: int
    card: str
    take: tuple[str, ...]
