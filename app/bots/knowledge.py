"""What a seat knows: the public facts of its view, and the cards it cannot see.

Everything a bot decides is derived from the view dict of docs/protocol.md
(``app.engine.views.match_view`` for its own seat) and nothing else.  This
module turns that dict into a small typed record:

* the rule set (``view["rules"]``), seats, dealer, hand, table, counts;
* the **unseen** cards: the full pack minus the own hand, the table, every
  card played this deal, every card taken from the opening table, and the
  set-aside pictures.  Exactly these cards are in the other hands and the
  stock, in some order the seat cannot know;
* who played last (the preceding player of R4.2), from the log.

It also answers the rules questions both heuristics and search ask about a
position after a hypothetical move: who moves next (R1.3, V7 skips empty
hands, R2.5 a new packet is led by the dealer's left), how many cards that
player will hold, and which played values would sweep a table (R4.1).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any, Iterable, Mapping, Sequence

from app.engine import captures
from app.engine.cards import (
    ALL_CODES, Card, card_points, hand_value, is_picture, pack, table_value,
)
from app.engine.rules import RuleSet

SWEEP = 5
DOUBLE_SWEEP = 10
HAND_VALUES = tuple(range(2, 15))
"""Values a card can have when played from hand: 2..13, and 14 for an ace (R1.4)."""
POINTS: dict[bool, dict[Card, int]] = {
    nordic: {c: card_points(c, nordic) for c in ALL_CODES} for nordic in (False, True)}
"""Card points of every code (R6.1), without and with V3 (nordic)."""


@dataclass(slots=True)
class Knowledge:
    """The public facts of one seat's view of the deal in progress."""

    rules: RuleSet
    me: int
    players: int
    dealer: int
    hand: list[Card]
    table: list[Card]
    hand_counts: list[int]
    stock_count: int
    unseen: list[Card]
    """Cards in the other hands and the stock (a multiset; twins repeat)."""
    last_capturer: int | None
    last_player: int
    """The seat that played last: the preceding player of R4.2 for the next sweep."""
    set_aside_spades: list[Card]
    set_aside_other: list[Card]
    hidden: int
    """How many cards lie in the other hands and the stock."""
    consistent: bool
    """False when fewer cards are unseen than the other hands and the stock hold.

    In a real view the two counts are equal; a constructed position (a test, a
    puzzle) may leave more cards unseen than hidden, and the hidden ones are
    then taken to be a random part of them."""
    lacks: dict[int, frozenset[int]]
    """Per other seat, hand values it cannot hold now (see ``infer_lacks``)."""

    @property
    def nordic(self) -> bool:
        return self.rules.nordic

    def team(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def points(self, cards: Iterable[Card]) -> int:
        return sum(map(POINTS[self.rules.nordic].__getitem__, cards))


def rules_of(view: Mapping[str, Any]) -> RuleSet:
    data = view.get("rules")
    return RuleSet.from_dict(data) if data is not None else RuleSet()


def read_view(view: Mapping[str, Any]) -> Knowledge:
    """The seat's knowledge from its view (docs/protocol.md, "The view")."""
    rules = rules_of(view)
    players = int(view["players"])
    me = view.get("you")
    if me is None:
        me = view["to_move"]
    hand = list(view["hand"])
    table = list(view["table"])
    hand_counts = list(view.get("hand_counts") or [0] * players)
    stock_count = int(view.get("stock_count") or 0)
    log = view.get("log") or []
    spades = list(view.get("set_aside_spades") or [])
    other = list(view.get("set_aside_other") or [])
    played = Counter(e["card"] for e in log)
    crept = Counter(e["card"] for e in log if not e.get("taken"))
    # Every card that ever lay on the table is still there, was taken, or was set
    # aside; removing the crept ones leaves the opening table (pictures included).
    on_table_once = Counter(table) + Counter(t for e in log for t in e.get("taken") or ())
    on_table_once.update(spades)
    on_table_once.update(other)
    opening_table = on_table_once - crept
    known = Counter(hand) + played + opening_table
    unseen_counts = Counter(pack(rules.copies)) - known
    unseen = sorted(unseen_counts.elements(), key=_order)
    hidden = sum(hand_counts) - hand_counts[me] + stock_count
    dealer = int(view.get("dealer") or 0)
    last_player = int(log[-1]["seat"]) if log else dealer  # R4.2: the dealer before the first play
    return Knowledge(
        rules=rules, me=int(me), players=players, dealer=dealer, hand=hand, table=table,
        hand_counts=hand_counts, stock_count=stock_count, unseen=unseen,
        last_capturer=view.get("last_capturer"), last_player=last_player,
        set_aside_spades=spades, set_aside_other=other, hidden=hidden,
        consistent=len(unseen) >= hidden,
        lacks=infer_lacks(rules, players, int(me), table, hand_counts, log),
    )


def infer_lacks(rules: RuleSet, players: int, me: int, table: Sequence[Card],
                hand_counts: Sequence[int], log: Sequence[Mapping[str, Any]]
                ) -> dict[int, frozenset[int]]:
    """Hand values another seat provably does not hold, from its plays this packet.

    Every card now in a hand was held at each of that seat's plays since the
    current packet was dealt.  Under R4.1 a seat that played anything but a
    sweep held no card of a value that sweeps the table it faced; under V6 a
    seat that crept held no card that could capture at all.  The plays of the
    current packet are the last ``packet size - cards in hands`` of the log,
    and undoing them from the current table gives the table each one faced.
    """
    if not log or not (rules.forced_sweep or rules.strict_capture):
        return {}
    batches, _ = rules.opening_counts(players)
    opening = sum(batches) * players
    dealt = len(log) + sum(hand_counts)
    if dealt <= opening:
        size = opening
    else:
        rest = (dealt - opening) % (4 * players)
        size = rest or 4 * players
    in_packet = min(len(log), max(0, size - sum(hand_counts)))
    if not in_packet:
        return {}
    before = list(table)
    faced: list[tuple[Mapping[str, Any], list[Card]]] = []
    for entry in reversed(log[len(log) - in_packet:]):
        taken = list(entry.get("taken") or ())
        if taken:
            before = before + taken
        elif entry["card"] in before:
            before = list(before)
            before.remove(entry["card"])
        else:  # the log does not match the table: infer nothing
            return {}
        faced.append((entry, before))
    lacks: dict[int, set[int]] = {}
    for entry, faced_table in faced:
        seat = int(entry["seat"])
        if seat == me or not faced_table:
            continue
        taken = entry.get("taken") or ()
        swept = len(taken) == len(faced_table)
        if rules.forced_sweep and not swept:
            lacks.setdefault(seat, set()).update(sweeping_values(faced_table))
        if rules.strict_capture and not taken:
            lacks.setdefault(seat, set()).update(capturing_values(faced_table))
    return {seat: frozenset(v) for seat, v in lacks.items() if v}


def capturing_values(table: Sequence[Card]) -> tuple[int, ...]:
    """The hand values (2..14) that form at least one group on this table (R3.2)."""
    if not table:
        return ()
    return _capturing_values(tuple(sorted(table_value(c) for c in table)))


@lru_cache(maxsize=65536)
def _capturing_values(values: tuple[int, ...]) -> tuple[int, ...]:
    reach = 1
    for v in values:
        reach |= reach << v
    return tuple(v for v in HAND_VALUES if reach >> v & 1)


def _order(card: Card) -> tuple[int, str]:
    return (table_value(card), card[-1])


# ------------------------------------------------------------------ turn order

def next_turn(players: int, dealer: int, counts: Sequence[int], seat: int,
              stock_count: int) -> tuple[int | None, int, bool]:
    """Who moves after ``seat`` has played, given the hand sizes after that play.

    Returns (next seat or None when the deal ends, that seat's hand size, whether a
    new packet is dealt first).  V7's short packet deals one card at a time, so
    the leader's size is then ceil(stock / players).
    """
    for i in range(1, players + 1):
        nxt = (seat + i) % players
        if counts[nxt]:
            return nxt, counts[nxt], False
    if not stock_count:
        return None, 0, False
    leader = (dealer + 1) % players
    if stock_count >= 4 * players:
        return leader, 4, True
    return leader, -(-stock_count // players), True


# --------------------------------------------------------------------- sweeps

_UNIT: dict[Card, int] = {c: 1 << (4 * (table_value(c) - 1)) for c in ALL_CODES}
"""A table card as a 4-bit count of its value (a value occurs at most 8 times)."""
_VALUE_CARD = {1: "AH", 2: "2H", 3: "3H", 4: "4H", 5: "5H", 6: "6H", 7: "7H", 8: "8H", 9: "9H",
               10: "10H", 11: "JH", 12: "QH", 13: "KH"}
"""A representative card per table value: what can be taken depends on values only (R3.2)."""
_SWEEPS: dict[int, tuple[int, ...]] = {}


def sweeping_values(table: Sequence[Card]) -> tuple[int, ...]:
    """The hand values (2..14) that would take this whole table (R4.1; empty table: none)."""
    if not table:
        return ()
    key = sum(map(_UNIT.__getitem__, table))
    found = _SWEEPS.get(key)
    if found is None:
        if len(_SWEEPS) > 200_000:
            _SWEEPS.clear()
        found = _SWEEPS[key] = _sweeping_values(sorted(table_value(c) for c in table))
    return found


def _sweeping_values(values: list[int]) -> tuple[int, ...]:
    total = sum(values)
    top = values[-1]
    # A group of a value v holds cards of at most v, so v >= the highest table card;
    # the groups partition the table, so v divides the sum.  Only then run the search.
    cards = [_VALUE_CARD[v] for v in values]
    return tuple(v for v in HAND_VALUES
                 if v >= top and total % v == 0 and captures.can_sweep(cards, v))


def clean_for_packet(table: Sequence[Card]) -> list[Card]:
    """R2.5: the table as the next packet finds it (pictures set aside)."""
    return [c for c in table if not is_picture(c)]


def prob_none(pool: int, good: int, drawn: int) -> float:
    """Hypergeometric: chance that ``drawn`` cards from ``pool`` hold none of ``good``."""
    if good <= 0 or drawn <= 0:
        return 1.0
    if drawn > pool - good:
        return 0.0
    return comb(pool - good, drawn) / comb(pool, drawn)


def count_with_values(cards: Iterable[Card], values: Iterable[int]) -> int:
    wanted = set(values)
    return sum(1 for c in cards if hand_value(c) in wanted)
