"""The views of a room: what every connection is sent, built from the room's state.

``RoomState`` (state.py) extends ``RoomViews``: the transitions live there, the views
here.  Views are cached per seq and rebuilt in parts: after a move most seats' parts
are the very objects the last call returned, which the hub's diff (app/realtime/hub.py)
passes over with one identity check instead of comparing them key by key.
"""

from __future__ import annotations

from typing import Any

from app.engine.deal import Deal
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.view_types import PlayJson, PrivateView
from app.engine.views import DealParts, deal_parts, private_view, public_match_view
from app.wire.view import (
    ClockView,
    ClosedView,
    PlayedFor,
    PreviousDeal,
    RematchEndedView,
    RoomOptionsView,
    RoomPublicView,
    SeatView,
    View,
)

from .assist import assist_view
from .correspondence import Correspondence
from .events import MovedBy
from .options import RoomOptions, SeatState
from .rematch import RematchOffer
from .results import RoomSummary

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
SPECTATOR_PART = -1
"""``_private``'s key for the spectators' part (seats are 0..n-1)."""


class RoomViews:
    """The view-building half of ``RoomState``: the attributes below are the state's."""

    room_id: str
    code: str
    players: int
    rules: RuleSet
    options: RoomOptions
    seats: list[SeatState]
    seq: int
    status: str
    match_no: int
    match: Match | None
    deal: Deal | None
    deal_no: int
    commitment: str | None
    previous_deal: PreviousDeal | None
    closed: ClosedView | None
    ready: set[int]
    rematch: RematchOffer | None
    rematch_ended: RematchEndedView | None
    banks: list[int] | None
    move_by: list[MovedBy | None]
    played_for: list[list[PlayedFor]]
    corr: Correspondence | None
    _public: tuple[int, RoomPublicView] | None
    _private: dict[int, tuple[tuple[Any, ...], PrivateView]]
    _log: tuple[Deal | None, list[PlayJson]] | None
    _seats_part: list[SeatView] | None
    _options_part: RoomOptionsView | None
    _deal_parts: tuple[Deal, tuple[Any, ...], DealParts] | None

    def clock(self) -> ClockView | None:
        raise NotImplementedError

    @property
    def between_deals(self) -> bool:
        raise NotImplementedError

    def next_deal_due(self) -> int:
        raise NotImplementedError

    def public_view(self) -> RoomPublicView:
        """The part of every connection's view that is the same for all (cached per seq)."""
        cached = self._public
        if cached is not None and cached[0] == self.seq:
            return cached[1]
        match = self.match or Match(self.rules, self.players, 0)  # waiting: an empty match
        same_deal = self._log is not None and self._log[0] is self.deal and cached is not None
        built = self._log[1] if same_deal and self._log is not None else None
        scores = cached[1]["scores"] if same_deal and cached is not None else None
        parts = self._slow_deal_parts()
        part = public_match_view(match, self.deal, self.status, self.deal_no, built, scores, parts)
        marked = len(built) if built is not None else 0
        self._log = (self.deal, part["log"])
        if self.match is None:
            part["dealer"] = None
        # the same dict, given the room's keys below (no cast: a call per move)
        v: RoomPublicView = part  # type: ignore[assignment]
        v["room_id"] = self.room_id
        v["code"] = self.code
        v["match_no"] = self.match_no
        v["seats"] = self._seats()
        v["commitment"] = self.commitment
        v["previous_deal"] = self.previous_deal
        v["options"] = self._options()
        v["clock"] = self.clock()
        v["closed"] = self.closed
        v["between"] = (
            {"ready": sorted(self.ready), "deadline": self.next_deal_due()}
            if self.between_deals
            else None
        )
        v["rematch"] = self.rematch.view() if self.rematch is not None else None
        v["rematch_ended"] = self.rematch_ended
        v["banks"] = list(self.banks) if self.banks is not None else None
        v["vacation"] = self.corr.view() if self.corr is not None else None
        v["assist"] = assist_view(self.seats, self.options, self.status == PLAYING, self.deal)
        if not self.options.hints:  # a room made with hints off: nobody is told (issue 31)
            v["sweep_call"] = None
        self._mark_moves(v, marked)
        self._public = (self.seq, v)
        return v

    def _seats(self) -> list[SeatView]:
        seats = self._seats_part
        if seats is None:
            seats = self._seats_part = [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "outside_bot": s.outside_bot,
                    "autoplay": s.autoplay,
                    "played_for": list(self.played_for[i]),
                }
                for i, s in enumerate(self.seats)
            ]
        return seats

    def _options(self) -> RoomOptionsView:
        options = self._options_part
        if options is None:
            options = self._options_part = self.options.to_dict()
        return options

    def _slow_deal_parts(self) -> DealParts | None:
        """The current deal's ``deal_parts``, built again only when what they show changed
        (pictures set aside, a sweep marked: a few times a deal)."""
        deal = self.deal
        if deal is None:
            return None
        # Within a deal these lists only grow (the spades' pile is replaced by an empty
        # one when the deal ends), so which lists they are and how long says whether
        # they changed, without copying them after every move.
        spades, other = deal.set_aside_spades, deal.set_aside_other
        shown = (spades, len(spades), other, len(other), sum(map(len, deal.sweep_markers)))
        cached = self._deal_parts
        if cached is not None and cached[0] is deal:
            was = cached[1]
            if (
                was[0] is spades
                and was[2] is other
                and was[1] == shown[1]
                and was[3] == shown[3]
                and was[4] == shown[4]
            ):
                return cached[2]
        parts = deal_parts(deal)
        self._deal_parts = (deal, shown, parts)
        return parts

    def _mark_moves(self, v: RoomPublicView, marked: int = 0) -> None:
        """Add ``by`` to the log's plays (and the last move) the server made for a seat.
        The first ``marked`` entries were marked when an earlier view built them."""
        log = v["log"]
        for i in range(marked, min(len(log), len(self.move_by))):
            by = self.move_by[i]
            if by is not None:
                log[i]["by"] = by
        last = v["last_move"]
        if log and last is not None and "by" in log[-1]:
            last["by"] = log[-1]["by"]

    def private_view(self, seat: int | None) -> PrivateView:
        """The part only ``seat`` sees (PRIVATE_KEYS): its hand and its legal moves.

        After a move most seats' parts are what they were (the same hand, no legal
        moves: not their turn), and so is the spectators'.  Those come back as the
        very object the last call returned, which the hub's diff passes over with one
        identity check instead of sorting a hand and comparing three keys per seat."""
        deal = self.deal
        playing = self.status == PLAYING
        if seat is None:  # nothing of a deal: the same part for as long as the room lives
            spectators = self._private.get(SPECTATOR_PART)
            if spectators is None:
                spectators = self._private[SPECTATOR_PART] = ((), private_view(None, None))
            return spectators[1]
        if deal is None or not 0 <= seat < deal.players:
            return private_view(deal, seat, playing=playing)
        hand = tuple(deal.hands[seat])
        to_move = playing and seat == deal.to_move
        key = (deal, hand, playing, self.seq if to_move else -1)
        cached = self._private.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        view = private_view(deal, seat, playing=playing)
        self._private[seat] = (key, view)
        return view

    def view(self, seat: int | None) -> View:
        """The view of PROTOCOL.md for a seat (None: a spectator)."""
        return {**self.public_view(), **self.private_view(seat)}

    def summary(self) -> RoomSummary:
        """The public room summary of GET /api/rooms/{id} (``connected``: bots only; the
        service adds who is online)."""
        return {
            "room_id": self.room_id,
            "code": self.code,
            "status": self.status,
            "players": self.players,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "outside_bot": s.outside_bot,
                    "connected": s.bot,
                }
                for i, s in enumerate(self.seats)
            ],
            "rules": self.rules.to_dict(),
            "options": self.options.to_dict(),
            "deal_no": self.deal_no,
            "deals_total": self.match.deals_total if self.match else None,
            "cumulative": self.match.cumulative if self.match else [0] * self.players,
            "match_no": self.match_no,
            "closed": self.closed,
        }
