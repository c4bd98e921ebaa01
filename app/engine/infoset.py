"""A seat's information set: what it knows of a deal, and how the hidden cards may lie.

Search (the ``strong`` bot) plays out many *worlds*: ways the cards a seat
cannot see might lie.  ``InformationSet`` is that seat's knowledge (read
from its view, or given by ``Deal.information_set``), and ``sample_hidden``
deals the hidden cards at random into the other hands and the stock, in the
spirit of OpenSpiel's ``resample_from_infostate``; ``Deal.from_information_set``
resumes a deal from such a sample.  So no code outside the engine builds a
deal's state field by field.

What a seat has seen is derived from the public view alone: the pack minus
its own hand, the table, every card played this deal, every card taken from
the opening table, and the set-aside pictures.  Exactly the other hands and
the stock hold the rest.  The log of the deal's plays is kept too: it proves
which cards a seat cannot hold (inference.py).

This module knows nothing of ``Deal`` (deal.py builds information sets and
worlds), so the two import one way only; an information set is a frozen value
of plain data, picklable for the bots' worker processes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, hand_value, pack, sort_key
from .results import LogEntry
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class InformationSet:
    """The public facts of one seat's view of a deal in progress, and its own hand."""

    rules: RuleSet
    players: int
    dealer: int
    seat: int
    """The seat whose knowledge this is."""
    hand: tuple[Card, ...]
    """Its own hand, in canonical order."""
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    """How many cards each seat holds."""
    stock_count: int
    unseen: tuple[Card, ...]
    """Cards in the other hands and the stock (a multiset, canonical order; twins repeat)."""
    last_capturer: int | None
    set_aside_spades: tuple[Card, ...]
    set_aside_other: tuple[Card, ...]
    history: tuple[LogEntry, ...]
    """Every play of this deal so far, oldest first (the view's log)."""

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

    @property
    def last_player(self) -> int:
        """Who played last: the dealer before the first play (R4.2, R5.3)."""
        return self.history[-1].seat if self.history else self.dealer

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
        history = tuple(LogEntry.from_json(e) for e in view.get("log") or ())
        spades = list(view.get("set_aside_spades") or [])
        other = list(view.get("set_aside_other") or [])
        played = Counter(e.card for e in history)
        crept = Counter(e.card for e in history if not e.taken)
        # Every card that ever lay on the table is still there, was taken, or was
        # set aside; removing the crept ones leaves the opening table.
        on_table_once = Counter(table) + Counter(t for e in history for t in e.taken)
        on_table_once.update(spades)
        on_table_once.update(other)
        known = Counter(hand) + played + (on_table_once - crept)
        unseen = Counter(pack(rules.copies)) - known
        return cls(
            rules=rules,
            players=players,
            dealer=int(view.get("dealer") or 0),
            seat=seat,
            hand=tuple(sorted(hand, key=sort_key)),
            table=tuple(table),
            hand_counts=tuple(view.get("hand_counts") or [0] * players),
            stock_count=int(view.get("stock_count") or 0),
            unseen=tuple(sorted(unseen.elements(), key=sort_key)),
            last_capturer=view.get("last_capturer"),
            set_aside_spades=tuple(sorted(spades, key=sort_key)),
            set_aside_other=tuple(sorted(other, key=sort_key)),
            history=history,
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
