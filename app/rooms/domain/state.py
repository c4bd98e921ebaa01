"""A room as a pure state machine over its events.

``RoomState.apply`` is the only transition; the room service decides which
events to write, commits them, and then applies them here.  Replaying a
room's stored events into a fresh RoomState rebuilds it exactly, which is how
a restarted server resumes every room and how a second process catches up.
The events themselves (one dataclass per kind, ``RoomEvent``, ``move_by``) are
in app/rooms/domain/events.py; the views every connection gets are built by
``RoomViews`` (app/rooms/domain/room_views.py), which this class extends.
"""

from __future__ import annotations

from typing import Any, assert_never

from app.engine.deal import Deal
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, shuffled_pack
from app.engine.view_types import PlayJson, PrivateView
from app.engine.views import DealParts
from app.wire.view import (
    ClockView,
    ClosedView,
    PlayedFor,
    PreviousDeal,
    RematchEndedView,
    RoomOptionsView,
    RoomPublicView,
    SeatView,
)

from .correspondence import DEFAULT_DAYS_PER_MOVE, Correspondence, follow
from .events import (
    AutoplaySet,
    DealShown,
    DealStarted,
    HintGiven,
    MatchStarted,
    MovedBy,
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
    move_by,
)
from .first_turns import FirstTurns
from .options import RoomOptions, SeatState
from .played_ids import PlayedIds
from .rematch import RematchOffer
from .room_views import FINISHED, PLAYING, WAITING, RoomViews

__all__ = ["FINISHED", "PLAYING", "WAITING", "RoomOptions", "RoomState", "SeatState"]


class RoomState(RoomViews):
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
        self.previous_deal: PreviousDeal | None = None
        self.played_ids = PlayedIds()
        """Ids of committed plays (``{seat}:{client id}`` or a server move's), so that a
        resent play is answered with its seq, never played twice."""
        self.finished_deal: PreviousDeal | None = None
        """Set by the play event that ended a deal: what persistence must store."""
        self.closed: ClosedView | None = None
        """{"reason", "at"} once an operator closed the room (the ``close`` event)."""
        self.ready: set[int] = set()
        """Seats that pressed Continue since the deal ended."""
        self.rematch: RematchOffer | None = None
        """The open rematch offer of a finished match (issue 33), else None."""
        self.rematch_ended: RematchEndedView | None = None
        """How the latest offer went without a new match (declined or lapsed), until
        the next offer or match."""
        self.deal_ended_at = 0
        """``at`` of the play that ended the latest deal (the between-deals pause counts
        from it)."""
        self.turn_since = 0
        """``at`` of the event that gave the seat to move its turn (the time bank's)."""
        self.first_turns = FirstTurns()
        """Seats whose first turn of the deal waits for their client to show it (issue
        47: they had not pressed Continue when it started)."""
        self.banks: list[int] | None = None
        """Each seat's time bank in ms at the start of its turn (None: no time bank)."""
        self.move_by: list[MovedBy | None] = []
        """For each play of the deal: None, or who played it for its seat (``move_by``)."""
        self.played_for: list[list[PlayedFor]] = [[] for _ in range(players)]
        """Per seat, the plays the server made for it since its player's last own play:
        what a returning player is told."""
        self.hint: HintGiven | None = None
        """The hint given for the position in play (issue 33), until the next play."""
        self.corr = (
            Correspondence(options.days_per_move or DEFAULT_DAYS_PER_MOVE, options.day_ms, players)
            if options.correspondence
            else None
        )
        """A correspondence room's turn and vacations (issue 32), else None."""
        self._public: tuple[int, RoomPublicView] | None = None
        self._private: dict[int, tuple[tuple[Any, ...], PrivateView]] = {}
        """Per seat: what its private part was built from, and that part (the
        spectators' under SPECTATOR_PART)."""
        self._log: tuple[Deal | None, list[PlayJson]] | None = None
        """The current deal's log as the last public view built it (reused: see
        ``public_deal_view``)."""
        self._seats_part: list[SeatView] | None = None
        """The public view's ``seats`` while no seat, autoplay or played-for changed
        (None once one did): the same object in every view, which the hub's diff
        passes over with one identity check."""
        self._options_part: RoomOptionsView | None = None
        """The public view's ``options`` until an ``option`` event (as ``_seats_part``)."""
        self._deal_parts: tuple[Deal, tuple[Any, ...], DealParts] | None = None
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

    def clock(self) -> ClockView | None:
        """The turn clock of the seat to move, when the room has one and a person (not
        a bot) is to move: its deadline counts from the latest event (with a time bank:
        from the start of the turn, plus what is left in the bank), so it is the same
        in every process and after a restart."""
        seat = self.to_move
        if seat is None or self.bot_controls(seat):
            return None
        if self.corr is not None:  # days per move, and vacations (issue 32)
            return {"seat": seat, "deadline": self.corr.deadline(seat)}
        first = self.first_turns  # a deal the seat had not seen yet: from when it did
        if self.banks is not None:
            return {"seat": seat, "deadline": first.start(seat, self.turn_since) + self.banks[seat]}
        if not self.options.turn_clock:
            return None
        start = first.start(seat, self.changed_at)
        return {"seat": seat, "deadline": start + int(self.options.turn_clock * 1000)}

    @property
    def between_deals(self) -> bool:
        """A deal is over, the match goes on, and the room waits before the next deal
        (for everyone to press Continue, or the pause to run out): no clock runs."""
        return (
            self.options.deal_pause > 0
            and self.corr is None  # a correspondence deal's end waits for nobody
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
        """The one transition: the room after ``ev`` (the next event of its log)."""
        if ev.seq != self.seq + 1:
            raise ValueError(f"event seq {ev.seq} does not follow {self.seq}")
        self.finished_deal = None
        match ev.body:
            case Played() as play:
                self._play(play, ev.seq, ev.at)
            case SeatTaken(seat, name, bot, outside_bot):
                self.seats[seat] = SeatState(name=name, bot=bot, outside_bot=outside_bot)
                self._seats_part = None
            case MatchStarted(match_no, first_dealer, _):
                self._start_match(match_no, first_dealer)
            case DealStarted(seed=seed, deal_no=deal_no):
                self._start_deal(seed, deal_no, ev.at)
            case ReadyPressed(seat):
                self.ready.add(seat)
            case DealShown(seat):
                self.first_turns.shown(seat, ev.at)
            case OptionChanged() as changed:
                self._change_option(changed)
            case AutoplaySet(seat, on):
                self.seats[seat].autoplay = on
                self._seats_part = None
            case RematchOffered() | RematchAccepted() | RematchDeclined() | RematchExpired():
                self._answer_rematch(ev.body, ev.at)
            case RoomClosed(reason, at):
                # An operator ended the room for everyone (``krypkasino rooms close``, the
                # admin page): finished as it stands, mid-deal or not, and it stays so.
                self.status = FINISHED
                self.closed = {"reason": reason, "at": at}
                self.rematch = self.rematch_ended = None
            # against bots (issue 33): a take-back undoes plays, a hint is only noted
            case TakenBack(_, plays):
                self._take_back(plays, ev.at)
            case HintGiven() as hint:
                self.hint = hint
            case VacationSet():
                pass  # the correspondence clock's alone: ``_settle`` follows it
            case _:  # a kind of event with no case: mypy fails here, not a room in play
                assert_never(ev.body)
        self.seq = ev.seq
        self._settle(ev)

    def _settle(self, ev: RoomEvent) -> None:
        """After any event: a correspondence room's turn and vacations follow it, and
        the timers count from it (not from a hint)."""
        if self.corr is not None:
            follow(self.corr, ev, self.to_move)
        if type(ev.body) not in (HintGiven, DealShown):  # no move: the clock runs on
            self.changed_at = ev.at

    def _change_option(self, changed: OptionChanged) -> None:
        """The host changed a setting in play (only spectators' chat may change)."""
        if changed.spectator_chat is not None:
            self.options.spectator_chat = changed.spectator_chat
        self._options_part = None

    def _start_match(self, match_no: int, first_dealer: int) -> None:
        self.match_no = match_no
        self.match = Match(self.rules, self.players, first_dealer)
        self.deal = None
        self.deal_no = 0
        self.previous_deal = None
        self.status = PLAYING
        bank = self.options.time_bank
        self.banks = [int(bank * 1000)] * self.players if bank else None
        self.played_for = [[] for _ in range(self.players)]
        self._seats_part = None
        self.rematch = self.rematch_ended = None
        self.first_turns = FirstTurns()

    def _answer_rematch(
        self, body: RematchOffered | RematchAccepted | RematchDeclined | RematchExpired, at: int
    ) -> None:
        """An offer opens (its deadline counted from its event's time), is accepted, or
        is withdrawn: declined or lapsed (the next match clears it: ``_start_match``)."""
        offer = self.rematch
        if isinstance(body, RematchOffered):
            self.rematch = RematchOffer(body.seat, {body.seat}, at + body.timeout_ms)
            self.rematch_ended = None
        elif isinstance(body, RematchAccepted):
            if offer is not None:
                offer.accepted.add(body.seat)
        else:
            declined = isinstance(body, RematchDeclined)
            if offer is not None:
                self.rematch_ended = {
                    "by": offer.by,
                    "reason": "declined" if declined else "expired",
                    "seat": body.seat if isinstance(body, RematchDeclined) else None,
                }
            self.rematch = None

    def _dealt(self, seed: str) -> Deal:
        """The current deal as dealt from its seed (R2)."""
        assert self.match is not None
        dealer = self.match.dealer_for(self.deal_no)
        return Deal.from_pack(
            self.rules, self.players, dealer, shuffled_pack(seed, self.rules.copies)
        )

    def _start_deal(self, seed: str, deal_no: int, at: int) -> None:
        timed = bool(self.options.turn_clock) or self.banks is not None
        unready = [i for i in range(self.players) if i not in self.ready and not self.seats[i].bot]
        waits = unready if timed and self.between_deals else []  # after a pause only
        self.first_turns.deal(waits, at, int(self.options.grace * 1000))
        self.deal_no = deal_no
        self.deal = self._dealt(seed)
        self.hint = None
        self.seed = seed
        self.commitment = commitment(seed)
        self.ready = set()
        self.move_by = []
        self.turn_since = at

    def _play(self, play: Played, seq: int, at: int) -> None:
        assert self.deal is not None and self.match is not None
        if self.deal.to_move != play.seat:
            raise ValueError(f"play event for seat {play.seat} but {self.deal.to_move} is to move")
        self.deal.apply(play.card, play.take)
        self.hint = None
        if play.client_id:
            self.played_ids.add(play.client_id, seq)
        self._account_play(play, at)
        if self.deal.is_over:
            self.deal_ended_at = at
            self.ready = set()
            self._end_deal()

    def _account_play(self, play: Played, at: int) -> None:
        """Who made the play, the time bank it used, what a returning player is told."""
        seat = play.seat
        by = move_by(play.client_id)
        self.move_by.append(by)
        if by is None:
            if self.played_for[seat]:
                self.played_for[seat] = []
                self._seats_part = None
        else:
            self.played_for[seat].append({"card": play.card, "by": by, "deal_no": self.deal_no})
            self._seats_part = None
        if self.banks is not None:
            used = max(0, at - self.first_turns.start(seat, self.turn_since))
            self.banks[seat] = max(0, self.banks[seat] - used) + int(
                self.options.time_increment * 1000
            )
        self.first_turns.played(seat)
        self.turn_since = at

    def _take_back(self, plays: int, at: int) -> None:
        """The deal as it was before its last ``plays`` plays (issue 33): dealt again from
        its seed with the plays that stand replayed, as a deal is its opening and its
        moves.  A new Deal object, so every view cache keyed by the deal starts afresh;
        the ids of the undone plays stay known (a resend is still no second play), and
        the time bank keeps what was spent."""
        deal = self.deal
        assert deal is not None and self.seed is not None and 0 < plays <= len(deal.moves)
        kept = len(deal.moves) - plays
        again = self._dealt(self.seed)
        for card, take in deal.moves[:kept]:
            again.apply(card, take)
        undone = zip(deal.results[kept:], self.move_by[kept:], strict=True)
        for result, by in reversed(list(undone)):  # no longer news for a returning player
            made = self.played_for[result.seat]
            if by is not None and made and made[-1]["card"] == result.card:
                made.pop()
                self._seats_part = None
        self.deal = again
        self.move_by = self.move_by[:kept]
        self.hint = None
        self.turn_since = at

    def _end_deal(self) -> None:
        deal, match = self.deal, self.match
        assert deal is not None and match is not None and deal.award is not None
        match.record_deal(deal.totals())
        previous: PreviousDeal = {
            "deal_no": self.deal_no,
            "scores": deal.scores_list(),
            "totals": deal.totals(),
            "award": deal.award.to_dict(),
            "seed": self.seed,
            "commitment": self.commitment,
            "total_points": deal.total_points(),
        }
        self.previous_deal = previous
        self.finished_deal = previous.copy()
        if match.is_over:
            self.status = FINISHED
