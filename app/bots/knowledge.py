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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from app.engine.cards import Card, hand_value
from app.engine.infoset import InformationSet
from app.engine.moves import POINTS
from app.engine.rules import RuleSet
from app.engine.takes import capturing_values, sweeping_values
from app.engine.turns import PACKET_SIZE

__all__ = [
    "Knowledge",
    "capturing_values",
    "count_with_values",
    "infer_lacks",
    "prob_none",
    "read_view",
    "rules_of",
    "sweeping_values",
]


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
    """The seat that played last (the dealer before the first play): R5.3."""
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
    info: InformationSet
    """The engine's information set of this seat: what search resamples worlds from."""

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
    info = InformationSet.from_view(view)
    log = view.get("log") or []
    # who played last: the dealer before the first play (R4.2, R5.3)
    last_player = int(log[-1]["seat"]) if log else info.dealer
    return Knowledge(
        rules=info.rules,
        me=info.seat,
        players=info.players,
        dealer=info.dealer,
        hand=list(info.hand),
        table=list(info.table),
        hand_counts=list(info.hand_counts),
        stock_count=info.stock_count,
        unseen=list(info.unseen),
        last_capturer=info.last_capturer,
        last_player=last_player,
        set_aside_spades=list(info.set_aside_spades),
        set_aside_other=list(info.set_aside_other),
        hidden=info.hidden,
        consistent=info.consistent,
        lacks=infer_lacks(
            info.rules, info.players, info.seat, list(info.table), list(info.hand_counts), log
        ),
        info=info,
    )


def infer_lacks(
    rules: RuleSet,
    players: int,
    me: int,
    table: Sequence[Card],
    hand_counts: Sequence[int],
    log: Sequence[Mapping[str, Any]],
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
        rest = (dealt - opening) % (PACKET_SIZE * players)
        size = rest or PACKET_SIZE * players
    in_packet = min(len(log), max(0, size - sum(hand_counts)))
    if not in_packet:
        return {}
    before = list(table)
    faced: list[tuple[Mapping[str, Any], list[Card]]] = []
    for entry in reversed(log[len(log) - in_packet :]):
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
        took: Sequence[Card] = entry.get("taken") or ()
        swept = len(took) == len(faced_table)
        if rules.forced_sweep and not swept:
            lacks.setdefault(seat, set()).update(sweeping_values(faced_table, rules))
        if rules.strict_capture and not took:
            lacks.setdefault(seat, set()).update(capturing_values(faced_table, rules))
    return {seat: frozenset(v) for seat, v in lacks.items() if v}


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
