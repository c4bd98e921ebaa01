"""A seat's information set: what it knows of a deal, and deals consistent with it.

Search (the ``strong`` bot) plays out many *worlds*: ways the cards a seat
cannot see might lie.  ``InformationSet`` is that seat's knowledge (read
from its view, or taken from a ``Deal``), and ``resample`` deals the hidden
cards at random into the other hands and the stock and resumes a ``Deal``
from there, in the spirit of OpenSpiel's ``resample_from_infostate``.  So no
code outside the engine builds a deal's state field by field.

What a seat has seen is derived from the public view alone: the pack minus
its own hand, the table, every card played this deal, every card taken from
the opening table, and the set-aside pictures.  Exactly the other hands and
the stock hold the rest.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import Card, hand_value, pack, sort_key
from .errors import SetupError
from .rules import RuleSet

if TYPE_CHECKING:
    from .deal import Deal


@dataclass(frozen=True, slots=True)
class InformationSet:
    """The public facts of one seat's view of a deal in progress."""

    rules: RuleSet
    players: int
    dealer: int
    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    unseen: tuple[Card, ...]
    """Cards in the other hands and the stock (a multiset, canonical order; twins repeat)."""
    last_capturer: int | None
    set_aside_spades: tuple[Card, ...]
    set_aside_other: tuple[Card, ...]

    @property
    def hidden(self) -> int:
        """How many cards lie in the other hands and the stock."""
        return sum(self.hand_counts) - self.hand_counts[self.seat] + self.stock_count

    @property
    def consistent(self) -> bool:
        """False when fewer cards are unseen than the other hands and the stock hold.

        In a real view the two counts are equal; a constructed position (a test,
        a puzzle) may leave more cards unseen than hidden, and the hidden ones
        are then taken to be a random part of them.
        """
        return len(self.unseen) >= self.hidden

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> InformationSet:
        """The knowledge of the view's own seat (docs/protocol.md, "The view")."""
        data = view.get("rules")
        rules = RuleSet.from_dict(data) if data is not None else RuleSet()
        players = int(view["players"])
        me = view.get("you")
        seat = int(view["to_move"] if me is None else me)
        hand = list(view["hand"])
        table = list(view["table"])
        log = view.get("log") or []
        spades = list(view.get("set_aside_spades") or [])
        other = list(view.get("set_aside_other") or [])
        played = Counter(e["card"] for e in log)
        crept = Counter(e["card"] for e in log if not e.get("taken"))
        # Every card that ever lay on the table is still there, was taken, or was
        # set aside; removing the crept ones leaves the opening table.
        on_table_once = Counter(table) + Counter(t for e in log for t in e.get("taken") or ())
        on_table_once.update(spades)
        on_table_once.update(other)
        known = Counter(hand) + played + (on_table_once - crept)
        unseen = Counter(pack(rules.copies)) - known
        return cls(
            rules=rules,
            players=players,
            dealer=int(view.get("dealer") or 0),
            seat=seat,
            hand=tuple(hand),
            table=tuple(table),
            hand_counts=tuple(view.get("hand_counts") or [0] * players),
            stock_count=int(view.get("stock_count") or 0),
            unseen=tuple(sorted(unseen.elements(), key=sort_key)),
            last_capturer=view.get("last_capturer"),
            set_aside_spades=tuple(sorted(spades, key=sort_key)),
            set_aside_other=tuple(sorted(other, key=sort_key)),
        )

    @classmethod
    def of_deal(cls, deal: Deal, seat: int) -> InformationSet:
        """What ``seat`` knows of ``deal``: its own hand, the public facts, the rest unseen."""
        if not 0 <= seat < deal.players:
            raise SetupError("no such seat")
        hidden = [c for s, h in enumerate(deal.hands) if s != seat for c in h] + deal.stock
        return cls(
            rules=deal.rules,
            players=deal.players,
            dealer=deal.dealer,
            seat=seat,
            hand=tuple(deal.hands[seat]),
            table=tuple(deal.table),
            hand_counts=tuple(len(h) for h in deal.hands),
            stock_count=len(deal.stock),
            unseen=tuple(sorted(hidden, key=sort_key)),
            last_capturer=deal.last_capturer,
            # canonical order, as the view shows them (an equal set compares equal)
            set_aside_spades=tuple(sorted(deal.set_aside_spades, key=sort_key)),
            set_aside_other=tuple(sorted(deal.set_aside_other, key=sort_key)),
        )

    def sample_hidden(
        self,
        rng: random.Random,
        lacks: Mapping[int, frozenset[int]] | None = None,
    ) -> tuple[list[list[Card]], list[Card]]:
        """Hidden hands and stock drawn at random, consistent with this information.

        ``lacks`` (per seat, hand values it is known not to hold) keeps those
        values out of that seat's hand when the unseen cards allow it; seats
        with known gaps are dealt first.
        """
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        lacks = lacks or {}
        order = sorted(
            (s for s in range(self.players) if s != self.seat), key=lambda s: (s not in lacks, s)
        )
        for seat in order:
            size = self.hand_counts[seat]
            gaps = lacks.get(seat)
            if gaps:
                take = [i for i, c in enumerate(pool) if hand_value(c) not in gaps][:size]
                if len(take) < size:  # the inference cannot all hold: ignore it
                    take = list(range(size))
                chosen = set(take)
                hands[seat] = [pool[i] for i in take]
                pool = [c for i, c in enumerate(pool) if i not in chosen]
            else:
                hands[seat] = pool[:size]
                pool = pool[size:]
        return hands, pool[: self.stock_count]

    def resample(
        self, rng: random.Random, lacks: Mapping[int, frozenset[int]] | None = None
    ) -> Deal:
        """A deal consistent with this information, hidden cards dealt at random.

        The seat is to move; the table, the last capturer and the set-aside
        pictures are as in the real deal.
        """
        hands, stock = self.sample_hidden(rng, lacks)
        return self.world(hands, stock)

    def world(self, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> Deal:
        """The deal of one sampled world (``sample_hidden``), the seat to move."""
        from .deal import Deal

        return Deal.resume(
            self.rules,
            self.players,
            self.dealer,
            hands,
            self.table,
            stock,
            self.seat,
            last_capturer=self.last_capturer,
            set_aside_spades=self.set_aside_spades,
            set_aside_other=self.set_aside_other,
        )
