"""A room as a pure state machine over its events.

``RoomState.apply`` is the only transition; the room service decides which
events to write, commits them, and then applies them here.  Replaying a
room's stored events into a fresh RoomState rebuilds it exactly, which is how
a restarted server resumes every room and how a second process catches up.
The events themselves (their kinds, ``RoomEvent``, ``move_by``) are in
app/rooms/events.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.deal import Deal
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, shuffled_pack
from app.engine.views import deal_parts, private_view, public_match_view

from .events import CHANGEABLE_OPTIONS, RoomEvent, move_by
from .played_ids import PlayedIds

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
SPECTATOR_PART = -1
"""``_private``'s key for the spectators' part (seats are 0..n-1)."""


@dataclass(slots=True)
class SeatState:
    name: str | None = None
    bot: bool = False
    """A bot seat from the room's creation."""
    autoplay: bool = False
    """A bot plays for this (human) seat while its player is away or out of time."""

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass(slots=True)
class RoomOptions:
    """Room settings that are not rules of the game."""

    bot_level: str = "greedy"
    bot_delay: float = 0.8
    turn_clock: float | None = None
    grace: float = 60.0
    deal_pause: float = 0.0
    """Seconds the room waits between deals for everyone to press Continue (0: the next
    deal starts at once, as rooms made before this option did)."""
    time_bank: float | None = None
    time_increment: float = 0.0
    """A Fischer clock: seconds each player has for the whole match, plus the increment
    after each of their moves (None: no time bank; exclusive with ``turn_clock``)."""
    public: bool = False
    """Listed in the lobby (GET /api/rooms/public)."""
    spectator_chat: bool = True
    """Whether players see spectators' chat while the match is played (the host may
    change it: an ``option`` event)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot_level": self.bot_level,
            "bot_delay": self.bot_delay,
            "turn_clock": self.turn_clock,
            "grace": self.grace,
            "deal_pause": self.deal_pause,
            "time_bank": self.time_bank,
            "time_increment": self.time_increment,
            "public": self.public,
            "spectator_chat": self.spectator_chat,
        }


class RoomState:
    def __init__(
        self, room_id: str, code: str, players: int, rules: RuleSet, options: RoomOptions
    ) -> None:
        rules.validate_for(players)
        self.room_id = room_id
        self.code = code
        self.players = players
        self.rules = rules
        self.options = options
        self.seats = [SeatState() for _ in range(players)]
        self.seq = 0
        self.changed_at = 0
        """``at`` of the latest event (Unix ms)."""
        self.status = WAITING
        self.match_no = 0
        self.match: Match | None = None
        self.deal: Deal | None = None
        self.deal_no = 0
        self.seed: str | None = None
        self.commitment: str | None = None
        self.previous_deal: dict[str, Any] | None = None
        self.played_ids = PlayedIds()
        """Ids of committed plays (``{seat}:{client id}`` or a server move's), so that a
        resent play is answered with its seq, never played twice."""
        self.finished_deal: dict[str, Any] | None = None
        """Set by the play event that ended a deal: what persistence must store."""
        self.closed: dict[str, Any] | None = None
        """{"reason", "at"} once an operator closed the room (the ``close`` event)."""
        self.ready: set[int] = set()
        """Seats that pressed Continue since the deal ended."""
        self.deal_ended_at = 0
        """``at`` of the play that ended the latest deal (the between-deals pause counts
        from it)."""
        self.turn_since = 0
        """``at`` of the event that gave the seat to move its turn (the time bank's)."""
        self.banks: list[int] | None = None
        """Each seat's time bank in ms at the start of its turn (None: no time bank)."""
        self.move_by: list[str | None] = []
        """For each play of the deal: None, or who played it for its seat (``move_by``)."""
        self.played_for: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        """Per seat, the plays the server made for it since its player's last own play:
        what a returning player is told."""
        self._public: tuple[int, dict[str, Any]] | None = None
        self._private: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = {}
        """Per seat: what its private part was built from, and that part (the
        spectators' under SPECTATOR_PART)."""
        self._log: tuple[Deal | None, list[dict[str, Any]]] | None = None
        """The current deal's log as the last public view built it (reused: see
        ``public_deal_view``)."""
        self._seats_part: list[dict[str, Any]] | None = None
        """The public view's ``seats`` while no seat, autoplay or played-for changed
        (None once one did): the same object in every view, which the hub's diff
        passes over with one identity check."""
        self._options_part: dict[str, Any] | None = None
        """The public view's ``options`` until an ``option`` event (as ``_seats_part``)."""
        self._deal_parts: tuple[Deal, tuple[Any, ...], dict[str, Any]] | None = None
        """The deal, what its slow-changing public parts show, and those parts
        (``deal_parts``); a new deal is told by identity, never compared field by field."""

    # ---------------------------------------------------------------- queries

    @property
    def all_seated(self) -> bool:
        return all(s.taken for s in self.seats)

    def free_seat(self) -> int | None:
        for i, s in enumerate(self.seats):
            if not s.taken:
                return i
        return None

    @property
    def to_move(self) -> int | None:
        return self.deal.to_move if self.deal is not None and self.status == PLAYING else None

    def bot_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.bot or s.autoplay

    def clock(self) -> dict[str, int] | None:
        """The turn clock of the seat to move, when the room has one and a person (not
        a bot) is to move: its deadline counts from the latest event (with a time bank:
        from the start of the turn, plus what is left in the bank), so it is the same
        in every process and after a restart."""
        seat = self.to_move
        if seat is None or self.bot_controls(seat):
            return None
        if self.banks is not None:
            return {"seat": seat, "deadline": self.turn_since + self.banks[seat]}
        if not self.options.turn_clock:
            return None
        return {"seat": seat, "deadline": self.changed_at + int(self.options.turn_clock * 1000)}

    @property
    def between_deals(self) -> bool:
        """A deal is over, the match goes on, and the room waits before the next deal
        (for everyone to press Continue, or the pause to run out): no clock runs."""
        return (
            self.options.deal_pause > 0
            and self.needs_next_deal()
            and self.deal is not None
            and self.deal.is_over
        )

    def next_deal_due(self) -> int:
        """When the between-deals pause runs out (Unix ms)."""
        return self.deal_ended_at + int(self.options.deal_pause * 1000)

    def bot_due(self) -> int:
        """When a bot to move should play (Unix ms): its delay after the latest event."""
        return self.changed_at + int(self.options.bot_delay * 1000)

    def needs_next_deal(self) -> bool:
        """A deal ended and the match goes on: the next deal must be started."""
        return (
            self.status == PLAYING
            and self.match is not None
            and (self.deal is None or self.deal.is_over)
            and not self.match.is_over
        )

    # ------------------------------------------------------------ transitions

    def apply(self, ev: RoomEvent) -> None:
        if ev.seq != self.seq + 1:
            raise ValueError(f"event seq {ev.seq} does not follow {self.seq}")
        handler = getattr(self, f"_on_{ev.kind}", None)
        if handler is None:
            raise ValueError(f"unknown event kind {ev.kind!r}")
        self.finished_deal = None
        handler(ev)
        self.seq = ev.seq
        self.changed_at = ev.at

    def _on_seat(self, ev: RoomEvent) -> None:
        assert ev.seat is not None
        self.seats[ev.seat] = SeatState(name=ev.data["name"], bot=bool(ev.data.get("bot")))
        self._seats_part = None

    def _on_match(self, ev: RoomEvent) -> None:
        self.match_no = ev.data["match_no"]
        self.match = Match(self.rules, self.players, ev.data["first_dealer"])
        self.deal = None
        self.deal_no = 0
        self.previous_deal = None
        self.status = PLAYING
        bank = self.options.time_bank
        self.banks = [int(bank * 1000)] * self.players if bank else None
        self.played_for = [[] for _ in range(self.players)]
        self._seats_part = None

    def _on_deal(self, ev: RoomEvent) -> None:
        assert self.match is not None
        seed = ev.data["seed"]
        self.deal_no = ev.data["deal_no"]
        dealer = self.match.dealer_for(self.deal_no)
        self.deal = Deal.from_pack(
            self.rules, self.players, dealer, shuffled_pack(seed, self.rules.copies)
        )
        self.seed = seed
        self.commitment = commitment(seed)
        self.ready = set()
        self.move_by = []
        self.turn_since = ev.at

    def _on_play(self, ev: RoomEvent) -> None:
        assert self.deal is not None and self.match is not None and ev.card is not None
        if self.deal.to_move != ev.seat:
            raise ValueError(f"play event for seat {ev.seat} but {self.deal.to_move} is to move")
        self.deal.apply(ev.card, ev.take)
        if ev.client_id:
            self.played_ids.add(ev.client_id, ev.seq)
        self._account_play(ev)
        if self.deal.is_over:
            self.deal_ended_at = ev.at
            self.ready = set()
            self._end_deal()

    def _account_play(self, ev: RoomEvent) -> None:
        """Who made the play, the time bank it used, what a returning player is told."""
        assert ev.seat is not None and ev.card is not None
        by = move_by(ev.client_id)
        self.move_by.append(by)
        if by is None:
            if self.played_for[ev.seat]:
                self.played_for[ev.seat] = []
                self._seats_part = None
        else:
            self.played_for[ev.seat].append({"card": ev.card, "by": by, "deal_no": self.deal_no})
            self._seats_part = None
        if self.banks is not None:
            used = max(0, ev.at - self.turn_since)
            self.banks[ev.seat] = max(0, self.banks[ev.seat] - used) + int(
                self.options.time_increment * 1000
            )
        self.turn_since = ev.at

    def _on_ready(self, ev: RoomEvent) -> None:
        assert ev.seat is not None
        self.ready.add(ev.seat)

    def _on_option(self, ev: RoomEvent) -> None:
        for key in CHANGEABLE_OPTIONS:
            if key in ev.data:
                setattr(self.options, key, bool(ev.data[key]))
        self._options_part = None

    def _on_autoplay(self, ev: RoomEvent) -> None:
        assert ev.seat is not None
        self.seats[ev.seat].autoplay = bool(ev.data["on"])
        self._seats_part = None

    def _on_close(self, ev: RoomEvent) -> None:
        """An operator ended the room for everyone (``krypkasino rooms close``, the admin
        page): it is finished as it stands, mid-deal or not, and stays so (the room
        service refuses seats, plays and rematches once ``closed`` is set)."""
        self.status = FINISHED
        self.closed = {"reason": str(ev.data.get("reason", "")), "at": ev.data.get("at")}

    def _end_deal(self) -> None:
        deal, match = self.deal, self.match
        assert deal is not None and match is not None and deal.award is not None
        match.record_deal(deal.totals())
        self.previous_deal = {
            "deal_no": self.deal_no,
            "scores": deal.scores_list(),
            "totals": deal.totals(),
            "award": deal.award.to_dict(),
            "seed": self.seed,
            "commitment": self.commitment,
            "total_points": deal.total_points(),
        }
        self.finished_deal = dict(self.previous_deal)
        if match.is_over:
            self.status = FINISHED

    # ------------------------------------------------------------------ views

    def public_view(self) -> dict[str, Any]:
        """The part of every connection's view that is the same for all (cached per seq)."""
        cached = self._public
        if cached is not None and cached[0] == self.seq:
            return cached[1]
        match = self.match or Match(self.rules, self.players, 0)  # waiting: an empty match
        same_deal = self._log is not None and self._log[0] is self.deal and cached is not None
        built = self._log[1] if same_deal and self._log is not None else None
        scores = cached[1]["scores"] if same_deal and cached is not None else None
        parts = self._slow_deal_parts()
        v = public_match_view(match, self.deal, self.status, self.deal_no, built, scores, parts)
        marked = len(built) if built is not None else 0
        self._log = (self.deal, v["log"])
        if self.match is None:
            v["dealer"] = None
        v.update(
            {
                "room_id": self.room_id,
                "code": self.code,
                "match_no": self.match_no,
                "seats": self._seats(),
                "commitment": self.commitment,
                "previous_deal": self.previous_deal,
                "options": self._options(),
                "clock": self.clock(),
                "closed": self.closed,
                "between": (
                    {"ready": sorted(self.ready), "deadline": self.next_deal_due()}
                    if self.between_deals
                    else None
                ),
                "banks": list(self.banks) if self.banks is not None else None,
            }
        )
        self._mark_moves(v, marked)
        self._public = (self.seq, v)
        return v

    def _seats(self) -> list[dict[str, Any]]:
        seats = self._seats_part
        if seats is None:
            seats = self._seats_part = [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "autoplay": s.autoplay,
                    "played_for": list(self.played_for[i]),
                }
                for i, s in enumerate(self.seats)
            ]
        return seats

    def _options(self) -> dict[str, Any]:
        options = self._options_part
        if options is None:
            options = self._options_part = self.options.to_dict()
        return options

    def _slow_deal_parts(self) -> dict[str, Any] | None:
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

    def _mark_moves(self, v: dict[str, Any], marked: int = 0) -> None:
        """Add ``by`` to the log's plays (and the last move) the server made for a seat.
        The first ``marked`` entries were marked when an earlier view built them."""
        log = v.get("log") or []
        for i in range(marked, min(len(log), len(self.move_by))):
            by = self.move_by[i]
            if by is not None:
                log[i]["by"] = by
        if log and v.get("last_move") is not None and "by" in log[-1]:
            v["last_move"]["by"] = log[-1]["by"]

    def private_view(self, seat: int | None) -> dict[str, Any]:
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

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of PROTOCOL.md for a seat (None: a spectator)."""
        v = dict(self.public_view())
        v.update(self.private_view(seat))
        return v

    def summary(self) -> dict[str, Any]:
        """The public room summary of GET /api/rooms/{id} (without presence)."""
        return {
            "room_id": self.room_id,
            "code": self.code,
            "status": self.status,
            "players": self.players,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot} for i, s in enumerate(self.seats)],
            "rules": self.rules.to_dict(),
            "options": self.options.to_dict(),
            "deal_no": self.deal_no,
            "deals_total": self.match.deals_total if self.match else None,
            "cumulative": self.match.cumulative if self.match else [0] * self.players,
            "match_no": self.match_no,
            "closed": self.closed,
        }
