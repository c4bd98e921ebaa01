"""One deal in play: turns, captures, sweeps, packets and the end award.

``Deal`` is the whole state of a deal and the only thing that changes it.
It is built either from a shuffled pack (``Deal.from_pack``, R2) or from a
position (``Deal.from_position``, the scenario format); the checks and the
opening rules of that setup live in deal_setup.py (``DealSetup``, the
constructors), which hands back a checked ``Start`` to build from.  Then
moves are applied one at a time: ``check`` raises the precise error of
FORMAT.md, ``apply`` checks and then changes the state, returning what
happened.  The rules a move follows are asked of legal.py and
move_check.py; this module keeps the state and its changes (R3.3, R4, R2.5,
R5) together, because that is where the invariants between hands, table,
piles and scores are kept.

What the deal tells the world is made of frozen values: ``legal`` lists the
moves allowed as ``LegalMove``s, ``information_set`` is what one seat knows,
and ``from_information_set`` resumes a deal from a world sampled from it.

Nothing here does I/O; a deal is fully determined by its opening position
and its moves, which is what persistence replays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Self

from .cards import Card, sorted_cards
from .counts import UNIT, Counts, table_counts
from .deal_setup import DealSetup, Start
from .errors import DealOver, SetupError
from .infoset import InformationSet
from .legal import described_moves
from .legal import legal_moves as generate
from .move_check import check_move
from .moves import (
    CAPTURE,
    CREEP,
    DOUBLE_SWEEP,
    ORDER_KEY,
    POINTS,
    SWEEP,
    LegalMove,
    Move,
    new_move,
    sweep_markers_of,
)
from .results import Award, LogEntry, MoveResult, Opening
from .rules import RuleSet
from .scoring import BORDSTABBE, Score
from .turns import award_seat, deal_packet, next_holder, packet_leader, preceding, set_aside
from .view_types import LegalMoveJson, ScoreJson

__all__ = ["CAPTURE", "CREEP", "DOUBLE_SWEEP", "SWEEP", "Award", "Move", "MoveResult", "Opening"]


@dataclass(slots=True)
class Deal(DealSetup):
    """The state of one deal; every change goes through ``apply`` or ``play_legal``."""

    rules: RuleSet
    players: int
    dealer: int
    opening: Opening
    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    """Undealt cards, top first."""
    to_move: int | None
    last_player: int
    """Who played last: the preceding player of R4.2 (R1.3)."""
    set_aside_spades: list[Card] = field(default_factory=list)
    set_aside_other: list[Card] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    sweep_markers: list[list[Card]] = field(default_factory=list)
    """R4.4: the capturing card of every sweep, public."""
    scores: list[Score] = field(default_factory=list)
    last_capturer: int | None = None
    award: Award | None = None
    results: list[MoveResult] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    bordstabbe_seat: int | None = None
    packets_dealt: int = 0
    _counts: int | None = None
    """Cache: the table as value counts (counts.Counts); None when unknown."""
    _legal: dict[Move, str] | None = None
    """Cache: the legal moves of this position and their kinds."""
    _total_points: int | None = None
    """Cache: total_points(), a function of the opening alone."""
    _log: list[LogEntry] = field(default_factory=list)
    """Cache: ``results`` as log entries, as far as they were needed (information sets)."""
    _described: tuple[dict[Move, str], tuple[LegalMove, ...]] | None = None
    """Cache: ``legal()`` and the ``_legal`` it was made from (a new position, a new dict)."""

    # ------------------------------------------------------------------ setup
    # The constructors (from_pack, from_position, resume, from_information_set) are
    # DealSetup's (deal_setup.py): they check the input and hand a Start to _begin.

    @classmethod
    def _begin(cls, start: Start) -> Self:
        """The deal of a checked start; a position with every hand empty moves on at once."""
        players = start.players
        deal = cls(
            rules=start.rules,
            players=players,
            dealer=start.dealer,
            opening=start.opening,
            hands=start.hands,
            table=start.table,
            stock=start.stock,
            to_move=start.to_move,
            last_player=(start.to_move - 1) % players,
            set_aside_spades=start.set_aside_spades,
            set_aside_other=start.set_aside_other,
            piles=[[] for _ in range(players)],
            sweep_markers=[[] for _ in range(players)],
            scores=[Score() for _ in range(players)],
            last_capturer=start.last_capturer,
            bordstabbe_seat=start.bordstabbe_seat,
        )
        if start.bordstabbe_seat is not None:  # V5
            deal.scores[start.bordstabbe_seat].bordstabbe += BORDSTABBE
        if not any(deal.hands):
            deal.after_hands_empty()
        return deal

    # ---------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    def last_packet(self) -> bool:
        """R2.6: true exactly when the stock is empty."""
        return not self.stock

    def _table_counts(self) -> Counts:
        if self._counts is None:
            self._counts = table_counts(self.table)
        return self._counts

    def information_set(self, seat: int) -> InformationSet:
        """What ``seat`` knows of this deal: its own hand, the public facts, the rest unseen."""
        if not 0 <= seat < self.players:
            raise SetupError("no such seat")
        log, results = self._log, self.results
        if len(log) < len(results):  # a deal's results only grow
            log.extend(r.log_entry() for r in results[len(log) :])
        hidden = [c for s, h in enumerate(self.hands) if s != seat for c in h] + self.stock
        return InformationSet(
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            seat=seat,
            hand=tuple(self.hands[seat]),
            table=tuple(self.table),
            hand_counts=tuple(len(h) for h in self.hands),
            stock_count=len(self.stock),
            unseen=tuple(sorted(hidden, key=ORDER_KEY)),
            last_capturer=self.last_capturer,
            # canonical order, as the view shows them (an equal set compares equal)
            set_aside_spades=tuple(sorted(self.set_aside_spades, key=ORDER_KEY)),
            set_aside_other=tuple(sorted(self.set_aside_other, key=ORDER_KEY)),
            history=tuple(log[: len(results)]),
        )

    def resample_from_infostate(self, seat: int, rng: random.Random) -> Deal:
        """A deal ``seat`` cannot tell from this one: its hidden cards dealt anew.

        ``seat`` must be the one to move (search asks for its own turn).
        """
        if seat != self.to_move:
            raise SetupError("resampling is for the seat to move")
        info = self.information_set(seat)
        hands, stock = info.sample_hidden(rng)
        return Deal.from_information_set(info, hands, stock)

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the player to move (R3, R4.1, V4, V6, V9).

        Distinct by (card code, multiset of taken codes); in canonical order.
        Computed once per position and kept until the state changes.
        """
        return list(self.legal_kinds())

    def legal_kinds(self) -> dict[Move, str]:
        """The legal moves of this position mapped to what each does (creep, capture, ...)."""
        legal = self._legal
        if legal is None:
            seat = self.to_move
            if seat is None:
                legal = {}
            else:
                legal = generate(self.rules, self.hands[seat], self.table, self._table_counts())
            self._legal = legal
        return legal

    def legal(self) -> tuple[LegalMove, ...]:
        """The legal moves of the player to move as value objects: card, take, what each
        does (kind), its card points and its sweep credit (R3, R4, R6.1), in canonical
        order.  The client and the bots read what a move does from here instead of
        working the rules out again (one source of rule facts)."""
        kinds = self.legal_kinds()
        cached = self._described
        if cached is None or cached[0] is not kinds:  # the view and a bot both ask
            cached = self._described = (kinds, described_moves(self.rules, kinds))
        return cached[1]

    def legal_described(self) -> list[LegalMoveJson]:
        """``legal`` in its wire form, as the view lists it (``LegalMove.to_json``,
        written out here: this runs for the seat to move after every move)."""
        return [
            {"card": card, "take": list(take), "kind": kind, "points": points, "sweep": sweep}
            for card, take, kind, points, sweep in self.legal()
        ]

    def check(self, card: Card, take: Sequence[Card] | None = ()) -> tuple[int, str]:
        """Raise the MoveError of FORMAT.md for an illegal move; else (seat, kind)."""
        seat = self.to_move
        if seat is None:
            raise DealOver("the deal is over")
        kind = check_move(
            self.rules, self.hands[seat], self.table, self._table_counts(), card, take
        )
        return seat, kind

    def is_legal(self, card: Card, take: Sequence[Card] | None = ()) -> bool:
        try:
            return Move.of(card, take) in self.legal_kinds()
        except TypeError:  # unhashable junk is no card
            return False

    # --------------------------------------------------------------- changes

    def apply(self, card: Card, take: Sequence[Card] | None = ()) -> MoveResult:
        """Check and play one move; raises MoveError and changes nothing if illegal."""
        move = None
        try:
            move = Move.of(card, take)
            kind = self.legal_kinds().get(move)
        except TypeError:  # unhashable junk: let check() name the error
            kind = None
        if kind is None or move is None:
            self.check(card, take)  # raises the precise error
            raise AssertionError(f"{move} passed check but is not in the legal moves")
        return self.play_legal(move, kind)

    def play_legal(self, move: Move, kind: str) -> MoveResult:
        """Play ``move``, known to be legal here with this ``kind`` (from ``legal_kinds``).

        The fast path of simulations, which draw from ``legal_kinds`` anyway:
        nothing is checked again.
        """
        seat = self.to_move
        if seat is None:
            raise DealOver("the deal is over")
        card, take = move
        self._legal = None
        hands = self.hands
        hands[seat].remove(card)
        conceded_by: int | None = None
        if kind == CREEP:
            self.table.append(card)
            if self._counts is not None:
                self._counts += UNIT[card]
        else:
            self._capture(seat, card, take)
            if kind != CAPTURE:
                # R4.2: the preceding player (R1.3), the seat before the sweeper,
                # whoever happened to play last (a scenario or a V7 skip).
                conceded_by = preceding(seat, self.players)
                self.sweep_markers[seat].extend(sweep_markers_of(card, kind))  # R4.4
                if kind == SWEEP:
                    self.scores[seat].sweeps += 1
                    self.scores[conceded_by].sweeps_conceded += 1
                else:
                    self.scores[seat].double_sweeps += 1
                    self.scores[conceded_by].double_sweeps_conceded += 1
        self.last_player = seat
        self.moves.append(move)
        nxt = seat + 1  # the next seat clockwise that still holds cards (V7 skips)
        if nxt == self.players:
            nxt = 0
        if hands[nxt]:
            self.to_move = nxt
            result = new_move(MoveResult, (seat, card, kind, take, conceded_by, False, None))
        else:
            self.to_move = next_holder([len(h) for h in hands], seat)
            packet_dealt = self.to_move is None and self.after_hands_empty()
            result = new_move(
                MoveResult, (seat, card, kind, take, conceded_by, packet_dealt, self.award)
            )
        self.results.append(result)
        return result

    def _capture(self, seat: int, card: Card, take: tuple[Card, ...]) -> None:
        """Move ``card`` and the taken table cards to the capture pile (R3.3) and score them."""
        table = self.table
        if len(take) == len(table):
            self.table = []
            self._counts = 0
        else:
            counts = self._counts
            for c in take:
                table.remove(c)
                if counts is not None:
                    counts -= UNIT[c]
            self._counts = counts
        pile = self.piles[seat]
        pile.append(card)
        pile.extend(take)
        points = POINTS[self.rules.nordic]
        gained = points[card]
        for c in take:
            gained += points[c]
        self.scores[seat].card_points += gained
        self.last_capturer = seat

    def set_aside_pictures(self) -> None:
        """R2.4 / R2.5: J, Q, K leave the table; spade pictures on their own pile (not V9)."""
        keep, spades, other = set_aside(self.table, self.rules)
        if spades or other:
            self.table = keep
            self.set_aside_spades.extend(spades)
            self.set_aside_other.extend(other)
            self._counts = None

    def after_hands_empty(self) -> bool:
        """Every hand is empty: deal a packet (R2.5) or end the deal (R5)."""
        if self.stock:
            self._deal_packet()
            return True
        self._finish()
        return False

    def _deal_packet(self) -> None:
        """R2.5: clean the table, then 2+2 to each from the dealer's left (V7: short packet)."""
        self.set_aside_pictures()
        dealt, used = deal_packet(self.stock, self.players, self.dealer)
        for hand, cards in zip(self.hands, dealt, strict=True):
            hand.extend(cards)
            hand.sort(key=ORDER_KEY)
        self.stock = self.stock[used:]
        self.packets_dealt += 1
        self._legal = None
        self.to_move = packet_leader(self.players, self.dealer)  # R2.1: the leader

    def _finish(self) -> None:
        """R5: the last capturer (or the last player, R5.3) takes table and spade pictures."""
        seat = award_seat(self.last_capturer, self.last_player)
        cards = tuple(sorted(self.table + self.set_aside_spades, key=ORDER_KEY))
        self.piles[seat].extend(cards)
        points = POINTS[self.rules.nordic]
        self.scores[seat].card_points += sum(map(points.__getitem__, cards))
        self.table = []
        self._counts = 0
        self.set_aside_spades = []
        self.to_move = None
        self._legal = None
        self.award = Award(seat, cards)

    # ---------------------------------------------------------------- output

    def total_points(self) -> int:
        """Card points of every card in this deal: what the scores must add up to.
        (Computed once: every view of the deal shows it.)"""
        if self._total_points is None:
            opening = self.opening
            cards = [*opening.table, *opening.stock, *(c for h in opening.hands for c in h)]
            self._total_points = sum(map(POINTS[self.rules.nordic].__getitem__, cards))
        return self._total_points

    def state_dict(self) -> dict[str, object]:
        """The ``state`` object of FORMAT.md."""
        return {
            "to_move": self.to_move,
            "hands": [sorted_cards(h) for h in self.hands],
            "table": sorted_cards(self.table),
            "stock_count": len(self.stock),
            "last_packet": self.last_packet,
            "set_aside_spades": sorted_cards(self.set_aside_spades),
            "set_aside_other": sorted_cards(self.set_aside_other),
            "last_capturer": self.last_capturer,
        }

    def scores_list(self) -> list[ScoreJson]:
        return [s.to_dict(seat) for seat, s in enumerate(self.scores)]

    def totals(self) -> list[int]:
        return [s.total for s in self.scores]
