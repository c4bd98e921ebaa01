"""Random playouts: one whole deal of uniformly random legal moves, with nothing kept but
the cards and the scores.

``krypkasino simulate`` plays deals by the thousand to check the invariants
and to measure the engine.  ``Deal`` (deal.py) records every move and its
result and keeps the position queryable between moves, which a playout never
asks for; here one loop deals (R2), plays and scores (R3-R5) and keeps only
hands, table, capture piles and scores.

The legal moves are the engine's own: the same memoized capture plans
(legal.py) are read in the same order as ``legal.legal_moves`` lists them,
and the move is drawn exactly as ``simulation.play_random`` draws from the
engine's list (one draw of ``random()`` unless there is a single move).  So
a playout makes the very moves ``Deal`` would make with the same random
numbers.  Being a second implementation of the rules, it is kept only with
the differential test tests/engine/test_playout.py: seeded deals of every
combination of the deal-level options it supports, for every player count,
played through both, every move, capture pile and score compared.

Not covered: V7 (four-card deal), whose short last packet leaves hands of
different sizes and skips empty ones; ``supports`` says so and the caller
plays those deals through ``Deal``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from . import captures, expansion
from .cards import Card, table_value
from .counts import UNIT, table_counts
from .legal import PLANS_BY_TABLE, Plan, capture_plan, table_plans
from .moves import HAND_VALUE, ORDER_KEY, PICTURES, POINTS, Move, new_move
from .rules import RuleSet
from .scoring import BORDSTABBE, DOUBLE_SWEEP, SWEEP
from .takes import can_sweep
from .turns import PACKET_BATCH, PACKET_SIZE, packet_order, set_aside


@dataclass(slots=True)
class Playout:
    """Where every card ended and what each seat scored (the checks of simulation.py)."""

    piles: list[list[Card]]
    set_aside_other: list[Card]
    left_over: list[Card]
    """Cards still on the table or in a hand at the end: none, when all went well (R5.1)."""
    card_points: list[int]
    sweep_transfers: list[int]
    """Per seat: sweep points made minus conceded (R6.2); they cancel over all seats."""
    bordstabbe_seat: int | None
    moves: int
    record: list[Move] = field(default_factory=list)
    """The moves played, when asked for (tests replay them through ``Deal``)."""

    def totals(self) -> list[int]:
        """R6.2: each seat's deal score."""
        out = [p + s for p, s in zip(self.card_points, self.sweep_transfers, strict=True)]
        if self.bordstabbe_seat is not None:
            out[self.bordstabbe_seat] += BORDSTABBE
        return out


Choice = tuple[Card, Sequence[Card], int]
"""A legal move in the loop: the card, the cards it takes, their value counts (0: creep)."""


def _quick_sweeps(hand: list[Card], table: list[Card], counts: int, pairs: bool) -> list[Choice]:
    """The sweeps of a crowded table, looked for first as legal.py does (R4.1); often none."""
    sweepers = [c for c in dict.fromkeys(hand) if can_sweep(counts, HAND_VALUE[c], pairs)]
    if not sweepers:
        return []
    whole = tuple(sorted(table, key=ORDER_KEY))
    return [(c, whole, counts) for c in sweepers]


def _choices_of(card: Card, plan: Plan, table: list[Card]) -> list[Choice]:
    """Every move of a capturing ``card``: its plan's takes in order (legal.legal_moves)."""
    out: list[Choice] = []
    for taken, pick in plan:
        if pick is None:
            out += _expanded(card, taken, table)
        else:
            out.append((card, pick(table), taken))
    return out


def _expanded(card: Card, taken: int, table: list[Card]) -> list[Choice]:
    """The distinct spellings of a take that leaves some cards of a value behind."""
    by_value = expansion.value_cards(table)
    return [(card, codes, taken) for codes in expansion.expand_from(by_value, taken)]


Pickers = list[tuple[int, "itemgetter[Any]"]]
"""Per seat, an itemgetter of its cards' positions in a pack or a packet."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where the cards of a deal go, by position in the pack (R2.2, R2.3, R2.5)."""

    order: list[int]
    opening: Pickers
    table: slice
    stock: int
    """Where the stock starts."""
    packet: Pickers


_LAYOUTS: dict[tuple[int, int, tuple[tuple[int, ...], int]], _Layout] = {}


def _layout(players: int, dealer: int, counts: tuple[tuple[int, ...], int]) -> _Layout:
    """The layout of a deal (``rules.opening_counts``), made once per seat count and dealer."""
    key = (players, dealer, counts)
    got = _LAYOUTS.get(key)
    if got is None:
        order = packet_order(players, dealer)
        batches, table_n = counts
        opening: dict[int, list[int]] = {seat: [] for seat in order}
        pos = 0
        table = slice(0)
        for i, n in enumerate(batches):  # R2.3: a batch to each, the table after the first
            for seat in order:
                opening[seat] += range(pos, pos + n)
                pos += n
            if i == 0:
                table = slice(pos, pos + table_n)
                pos += table_n
        packet: dict[int, list[int]] = {seat: [] for seat in order}
        for batch in range(PACKET_SIZE // PACKET_BATCH * players):  # R2.5: 2+2 to each
            top = batch * PACKET_BATCH
            packet[order[batch % players]] += range(top, top + PACKET_BATCH)
        got = _LAYOUTS[key] = _Layout(
            order,
            [(seat, itemgetter(*at)) for seat, at in opening.items()],
            table,
            pos,
            [(seat, itemgetter(*at)) for seat, at in packet.items()],
        )
    return got


def supports(rules: RuleSet) -> bool:
    """Whether ``playout`` can play deals of these rules (not V7, see the module doc)."""
    return not rules.four_card_deal


def playout(  # noqa: C901 - one loop over a whole deal on purpose (the module says why)
    rules: RuleSet,
    players: int,
    dealer: int,
    pack: Sequence[Card],
    random: Callable[[], float],
    record: bool = False,
) -> Playout:
    """Deal ``pack`` (top first) and play it out with moves drawn by ``random()``.

    The pack and the rules are taken to be valid (``simulate`` makes both);
    every move is drawn uniformly from the distinct legal moves (R3, R4.1,
    V4, V6, V9) with ``int(random() * n)``, as ``simulation.play_random`` does.

    One long function on purpose: it runs about a hundred turns a deal, and
    a helper called every turn, or an attribute looked up instead of a local
    name, costs a measurable share of a turn (issue 14 times this loop).
    Only the rare paths (a crowded table, a take spelled several ways) call
    out.
    """
    layout = _layout(players, dealer, rules.opening_counts(players))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for seat, cards_of in layout.opening:  # canonical order: twins are neighbours
        hands[seat] = sorted(cards_of(pack), key=ORDER_KEY)
    stock = list(pack[layout.stock :])
    table, spades, other = set_aside(pack[layout.table], rules)  # R2.4
    table.sort(key=ORDER_KEY)  # kept in canonical order: the capture plans pick by position
    bordstabbe_seat = None
    if rules.bordstabbe and len(table) >= 2 and len({table_value(c) for c in table}) == 1:
        bordstabbe_seat = (dealer + 1) % players  # V5
    piles: list[list[Card]] = [[] for _ in range(players)]
    card_points = [0] * players
    transfers = [0] * players
    played: list[Move] = []
    order = layout.order
    packet_size = PACKET_SIZE * players
    dealt_to = layout.packet
    counts = table_counts(table)
    last_capturer = None
    moves = len(pack) - len(table) - len(spades) - len(other)  # every card dealt to a hand

    hand_value = HAND_VALUE
    points = POINTS[rules.nordic]
    pairs = rules.picture_pairs
    forced = rules.forced_sweep
    strict = rules.strict_capture
    by_table = PLANS_BY_TABLE
    small = captures.SMALL
    order_key = ORDER_KEY
    unit = UNIT
    pictures = PICTURES
    choices: list[Choice]
    while True:
        for _ in range(len(hands[order[0]])):
            for seat in order:
                hand = hands[seat]
                # -------- the legal moves, as legal.legal_moves lists them
                per_value = by_table.get(counts << 1 | pairs)
                if per_value is None:
                    per_value = table_plans(counts, pairs)
                if len(hand) == 1:  # the last card of a packet: its own moves only
                    card = hand[0]
                    value = hand_value[card]
                    plan = per_value[value]
                    if plan is None:
                        plan = per_value[value] = capture_plan(counts, value, pairs)
                    take: Sequence[Card] = ()
                    taken = 0
                    if not plan:
                        pass  # it creeps (R3.4)
                    elif forced and plan[-1][0] == counts:  # R4.1: only the sweep
                        take, taken = table, counts
                    elif len(plan) == 1 and (pick := plan[0][1]) is not None:
                        taken = plan[0][0]
                        take = table if taken == counts else pick(table)
                    else:
                        choices = _choices_of(card, plan, table)
                        n = len(choices)
                        card, take, taken = choices[0] if n == 1 else choices[int(random() * n)]
                else:
                    choices = []
                    if forced and len(table) > small:  # legal.py's quick look for a sweep
                        choices = _quick_sweeps(hand, table, counts, pairs)
                    if not choices:
                        sweepers: list[Card] | None = None
                        creeps = 0
                        prev = None
                        for card in hand:
                            if card == prev:
                                continue
                            prev = card
                            value = hand_value[card]
                            plan = per_value[value]
                            if plan is None:
                                plan = per_value[value] = capture_plan(counts, value, pairs)
                            if not plan:
                                choices.append((card, (), 0))  # it creeps (R3.4)
                                creeps += 1
                                continue
                            if plan[-1][0] == counts:
                                if sweepers is None:
                                    sweepers = [card]
                                else:
                                    sweepers.append(card)
                            for taken, pick in plan:
                                if pick is None:
                                    choices += _expanded(card, taken, table)
                                else:
                                    choices.append((card, pick(table), taken))
                        if creeps != len(choices):  # some card captures
                            if sweepers and forced:  # R4.1
                                choices = [(c, table, counts) for c in sweepers]
                            elif strict:  # V6
                                choices = [c for c in choices if c[2]]
                    n = len(choices)
                    card, take, taken = choices[0] if n == 1 else choices[int(random() * n)]
                # -------- the move
                if record:
                    played.append(new_move(Move, (card, tuple(take))))
                hand.remove(card)
                if not take:
                    insort(table, card, key=order_key)
                    counts += unit[card]
                    continue
                pile = piles[seat]
                pile.append(card)
                pile += take
                gained = points[card]
                for c in take:
                    gained += points[c]
                card_points[seat] += gained
                last_capturer = seat
                if taken != counts:
                    for c in take:
                        table.remove(c)
                    counts -= taken
                    continue
                table = []  # a sweep (R4.2, R4.3)
                counts = 0
                credit = SWEEP
                if len(take) == 1 and take[0] == card and card[0] != "A":
                    credit = DOUBLE_SWEEP
                transfers[seat] += credit
                transfers[(seat - 1) % players] -= credit
        if not stock:
            break
        if not pairs and not pictures.isdisjoint(table):  # R2.5 (never under V9)
            table, spades_now, other_now = set_aside(table, rules)
            spades += spades_now
            other += other_now
            counts = table_counts(table)
        packet = stock[:packet_size]  # R2.5: 2+2 to each from the dealer's left
        stock = stock[packet_size:]
        for seat, cards_of in dealt_to:  # every hand is empty: it is the seat's packet cards
            hands[seat] = sorted(cards_of(packet), key=order_key)
    # R5.1, R5.3: the last capturer, else the dealer, who played last.
    seat = last_capturer if last_capturer is not None else order[-1]
    rest = table + spades
    piles[seat] += rest
    card_points[seat] += sum(map(points.__getitem__, rest))
    left = [c for h in hands for c in h]
    return Playout(piles, other, left, card_points, transfers, bordstabbe_seat, moves, played)
