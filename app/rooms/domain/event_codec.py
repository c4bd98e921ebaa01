"""How an event is stored, both ways: one codec for the state, the stores and the rows.

A stored event is a row: its ``kind``, the seat, card, take and client id that a
play has as columns of their own (so that a room's plays and their ids are
indexed), and the rest as JSON ``data``.  Rows written by every earlier version
of the server read back the same way (tests/migrations): the JSON keys are the
ones the server has always written.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .events import (
    AUTOPLAY,
    CLOSE,
    DEAL,
    HINT,
    MATCH,
    OPTION,
    PLAY,
    READY,
    REMATCH_ACCEPT,
    REMATCH_DECLINE,
    REMATCH_EXPIRE,
    REMATCH_OFFER,
    SEAT,
    SHOWN,
    TAKEBACK,
    VACATION,
    AutoplaySet,
    DealShown,
    DealStarted,
    EventBody,
    HintGiven,
    MatchStarted,
    OptionChanged,
    Played,
    ReadyPressed,
    RematchAccepted,
    RematchDeclined,
    RematchExpired,
    RematchOffered,
    RoomClosed,
    RoomEvent,
    SeatTaken,
    TakenBack,
    VacationSet,
)


class EventRow(NamedTuple):
    """An event as the ``events`` table holds it (less room, seq and times).  A tuple:
    one is made for every move written, and a tuple is made fastest."""

    kind: str
    seat: int | None = None
    card: str | None = None
    take: tuple[str, ...] | None = None
    client_id: str | None = None
    data: dict[str, Any] | None = None

    def json_data(self) -> dict[str, Any]:
        return dict(self.data) if self.data else {}


def to_row(body: EventBody) -> EventRow:
    """The row an event is stored as."""
    if type(body) is Played:  # nearly every event: no pattern to try first
        return EventRow(PLAY, body.seat, body.card, body.take, body.client_id)
    match body:
        case Played(seat, card, take, client_id):
            return EventRow(PLAY, seat, card, take, client_id)
        case SeatTaken(seat, name, bot):
            return EventRow(SEAT, seat, data={"name": name, "bot": True} if bot else {"name": name})
        case MatchStarted(match_no, first_dealer, players):
            started = {"match_no": match_no, "first_dealer": first_dealer, "players": players}
            return EventRow(MATCH, data=started)
        case DealStarted(seed, match_no, deal_no, dealer, copies, players):
            data: dict[str, Any] = {
                "seed": seed,
                "match_no": match_no,
                "deal_no": deal_no,
                "dealer": dealer,
                "copies": copies,
                "players": players,
            }
            return EventRow(DEAL, data=data)
        case AutoplaySet(seat, on):
            return EventRow(AUTOPLAY, seat, data={"on": on})
        case VacationSet(seat, on):
            return EventRow(VACATION, seat, data={"on": on})
        case ReadyPressed(seat):
            return EventRow(READY, seat)
        case DealShown(seat):
            return EventRow(SHOWN, seat)
        case OptionChanged(spectator_chat):
            return EventRow(OPTION, data={"spectator_chat": spectator_chat})
        case RoomClosed(reason, at):
            return EventRow(CLOSE, data={"reason": reason, "at": at})
    return _answer_row(body)


def _answer_row(body: EventBody) -> EventRow:
    """The rows of the events that answer a finished match or a lone person (issue 33):
    the rematch offer and its answers, a take-back, a hint."""
    match body:
        case RematchOffered(seat, timeout_ms):
            return EventRow(REMATCH_OFFER, seat, data={"timeout_ms": timeout_ms})
        case RematchAccepted(seat):
            return EventRow(REMATCH_ACCEPT, seat)
        case RematchDeclined(seat):
            return EventRow(REMATCH_DECLINE, seat)
        case RematchExpired():
            return EventRow(REMATCH_EXPIRE)
        # against bots: a hint has its move in the play's columns
        case TakenBack(seat, plays):
            return EventRow(TAKEBACK, seat, data={"plays": plays})
        case HintGiven(seat, card, take):
            return EventRow(HINT, seat, card, take)
    raise TypeError(f"not an event: {body!r}")


def _seat(seat: int | None, kind: str) -> int:
    if seat is None:
        raise ValueError(f"a stored {kind} event without a seat")
    return seat


def from_row(row: EventRow) -> EventBody:
    """The event a stored row holds; ValueError for a kind this server does not know."""
    data = row.data or {}
    kind = row.kind
    if kind == PLAY:
        if row.card is None:
            raise ValueError("a stored play without a card")
        return Played(_seat(row.seat, kind), row.card, tuple(row.take or ()), row.client_id)
    if kind == SEAT:
        return SeatTaken(_seat(row.seat, kind), str(data["name"]), bool(data.get("bot")))
    if kind == MATCH:
        return MatchStarted(
            int(data["match_no"]), int(data["first_dealer"]), int(data.get("players", 0))
        )
    if kind == DEAL:
        return DealStarted(
            str(data["seed"]),
            int(data.get("match_no", 0)),
            int(data["deal_no"]),
            int(data.get("dealer", 0)),
            int(data.get("copies", 0)),
            int(data.get("players", 0)),
        )
    if kind == AUTOPLAY:
        return AutoplaySet(_seat(row.seat, kind), bool(data["on"]))
    if kind == VACATION:
        return VacationSet(_seat(row.seat, kind), bool(data["on"]))
    if kind == READY:
        return ReadyPressed(_seat(row.seat, kind))
    if kind == SHOWN:
        return DealShown(_seat(row.seat, kind))
    if kind == OPTION:
        chat = data.get("spectator_chat")
        return OptionChanged(bool(chat) if chat is not None else None)
    if kind == CLOSE:
        at = data.get("at")
        return RoomClosed(str(data.get("reason", "")), str(at) if at is not None else None)
    return _answer_event(row, data)


def _answer_event(row: EventRow, data: dict[str, Any]) -> EventBody:
    """``from_row`` for the rematch offer and its answers, take-backs and hints."""
    kind = row.kind
    if kind == REMATCH_OFFER:
        return RematchOffered(_seat(row.seat, kind), int(data["timeout_ms"]))
    if kind == REMATCH_ACCEPT:
        return RematchAccepted(_seat(row.seat, kind))
    if kind == REMATCH_DECLINE:
        return RematchDeclined(_seat(row.seat, kind))
    if kind == REMATCH_EXPIRE:
        return RematchExpired()
    if kind == TAKEBACK:
        return TakenBack(_seat(row.seat, kind), int(data["plays"]))
    if kind == HINT:
        if row.card is None:
            raise ValueError("a stored hint without a card")
        return HintGiven(_seat(row.seat, kind), row.card, tuple(row.take or ()))
    raise ValueError(f"unknown event kind {kind!r}")


def stored_event(
    seq: int,
    kind: str,
    *,
    seat: int | None = None,
    card: str | None = None,
    take: tuple[str, ...] | list[str] = (),
    client_id: str | None = None,
    data: dict[str, Any] | None = None,
    at: int = 0,
) -> RoomEvent:
    """The event of a stored row's columns (a store reading its rows, a test writing
    what a store would hold)."""
    row = EventRow(kind, seat, card, tuple(take), client_id, data)
    return RoomEvent(seq, from_row(row), at)
