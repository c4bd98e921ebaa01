"""What a seat knows: the engine's information set and what it proves about other hands.

A bot decides from one seat's knowledge only: the engine's
``InformationSet`` of that seat (``Deal.information_set``, or
``InformationSet.from_view`` for a view dict of docs/protocol.md), which
holds the rule set, seats, dealer, hand, table, counts, the **unseen**
cards (exactly those in the other hands and the stock) and the log of the
deal's plays.  ``Knowledge`` adds what those plays prove other seats lack
(``app.engine.inference``).

No rule is worked out here: which values sweep or capture on a table, who
moves after a play and with how many cards, and what the plays prove are
all the engine's answers (takes.py, turns.py, inference.py).  What remains
is the bots' own arithmetic: the odds of drawing a card (``prob_none``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

from app.engine.cards import Card
from app.engine.inference import proven_lacks
from app.engine.infoset import InformationSet
from app.engine.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's information set and the hand values other seats provably lack."""

    info: InformationSet
    """The engine's information set of the seat: what search resamples worlds from."""
    lacks: Mapping[int, frozenset[int]]
    """Per other seat, hand values it cannot hold now (``inference.proven_lacks``)."""

    @property
    def rules(self) -> RuleSet:
        return self.info.rules

    @property
    def me(self) -> int:
        """The seat that knows this."""
        return self.info.seat

    @property
    def players(self) -> int:
        return self.info.players

    @property
    def dealer(self) -> int:
        return self.info.dealer

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.info.hand

    @property
    def table(self) -> tuple[Card, ...]:
        return self.info.table

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self.info.hand_counts

    @property
    def stock_count(self) -> int:
        return self.info.stock_count

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards in the other hands and the stock (a multiset; twins repeat)."""
        return self.info.unseen

    @property
    def last_capturer(self) -> int | None:
        return self.info.last_capturer

    @property
    def last_player(self) -> int:
        """The seat that played last (the dealer before the first play): R5.3."""
        return self.info.last_player

    @property
    def set_aside_spades(self) -> tuple[Card, ...]:
        return self.info.set_aside_spades

    @property
    def hidden(self) -> int:
        """How many cards lie in the other hands and the stock."""
        return self.info.hidden

    @property
    def consistent(self) -> bool:
        """False when fewer cards are unseen than hidden (a constructed position)."""
        return self.info.consistent


def knowledge_of(info: InformationSet) -> Knowledge:
    """What the seat of ``info`` knows, with the gaps the deal's plays prove."""
    return Knowledge(info, proven_lacks(info))


def read_view(view: Mapping[str, Any]) -> Knowledge:
    """The knowledge of a view's own seat (docs/protocol.md, "The view")."""
    return knowledge_of(InformationSet.from_view(view))


def prob_none(pool: int, good: int, drawn: int) -> float:
    """Hypergeometric: chance that ``drawn`` cards from ``pool`` hold none of ``good``."""
    if good <= 0 or drawn <= 0:
        return 1.0
    if drawn > pool - good:
        return 0.0
    return comb(pool - good, drawn) / comb(pool, drawn)
