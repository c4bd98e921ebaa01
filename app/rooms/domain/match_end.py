"""A finished match as the features that follow matches see it (the ratings, issue 34).

The write path builds one as it applies the play that ended a match
(``finished_match``, domain/outcomes.py) and stores it as the body of a
``match_ended`` domain event in the same transaction (``match_json``).  It is a plain
value taken from the room's state at that moment, so a subscriber never reads a room
that may have moved on (a rematch) and never holds the room's lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.outbox import JsonBody

from .state import RoomState


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    seat: int
    name: str | None
    bot: bool
    """A bot seat from the room's creation (it plays at the room's ``bot_level``)."""
    left: bool
    """A person's seat a stand-in bot was playing when the match ended: its player was
    away past the grace period and never came back (``autoplay`` still on)."""
    total: int
    """The seat's match total (R6.2 summed over the deals; lower is better, R6.4)."""


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    room_id: str
    match_no: int
    players: int
    rated: bool
    """The room was made ``rated`` (every seat an account or a bot)."""
    bot_level: str
    seats: tuple[FinishedSeat, ...]
    winners: tuple[int, ...]
    at_ms: int
    """When the match ended: the ``at`` of its last play (Unix ms)."""


def finished_match(st: RoomState) -> FinishedMatch | None:
    """The match ``st`` has just finished, or None when it has no finished match."""
    match = st.match
    if match is None or not match.is_over:
        return None
    totals = match.cumulative
    seats = tuple(
        FinishedSeat(i, s.name, s.bot, s.autoplay and not s.bot, totals[i])
        for i, s in enumerate(st.seats)
    )
    return FinishedMatch(
        room_id=st.room_id,
        match_no=st.match_no,
        players=st.players,
        rated=st.options.rated,
        bot_level=st.options.bot_level,
        seats=seats,
        winners=tuple(match.winners() or ()),
        at_ms=st.changed_at,
    )


@dataclass(frozen=True, slots=True)
class LatestMatch:
    """A room's latest match as stored, for a reader that missed its end (the ratings'
    catch-up): its number, the player count, when the room last changed, and the match
    itself when it has finished (None while it is played)."""

    match_no: int
    players: int
    changed_at: int
    finished: FinishedMatch | None


def latest_match(st: RoomState) -> LatestMatch:
    """The latest match of the room ``st``."""
    return LatestMatch(st.match_no, st.players, st.changed_at, finished_match(st))


def match_json(m: FinishedMatch) -> JsonBody:
    """A finished match as the body of a ``match_ended`` domain event (app/core/outbox.py)."""
    return {
        "room_id": m.room_id,
        "match_no": m.match_no,
        "players": m.players,
        "rated": m.rated,
        "bot_level": m.bot_level,
        "seats": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "left": s.left, "total": s.total}
            for s in m.seats
        ],
        "winners": list(m.winners),
        "at_ms": m.at_ms,
    }


def match_from_json(body: Mapping[str, Any]) -> FinishedMatch:
    """The finished match a ``match_ended`` event carries (the inverse of ``match_json``)."""
    return FinishedMatch(
        room_id=str(body["room_id"]),
        match_no=int(body["match_no"]),
        players=int(body["players"]),
        rated=bool(body["rated"]),
        bot_level=str(body["bot_level"]),
        seats=tuple(
            FinishedSeat(
                int(s["seat"]),
                None if s["name"] is None else str(s["name"]),
                bool(s["bot"]),
                bool(s["left"]),
                int(s["total"]),
            )
            for s in body["seats"]
        ),
        winners=tuple(int(w) for w in body["winners"]),
        at_ms=int(body["at_ms"]),
    )
