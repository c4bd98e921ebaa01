"""Soft inference: how well a sampled world explains the others' latest plays.

The worlds of the search (``strong.sample_world``) keep out only what the
plays *prove* (``inference.proven_lacks``).  A play also says more, softly: a
player who crept the 9 when a harmless 3 was in hand is unlikely to have held
that 3.  This module rates a sampled world by how far each of the others'
plays since the current packet came (the plays made with the hands held now,
``turns.plays_with_current_hands``) falls short of the best play the greedy
cost function finds for that seat *in that world*, judged from that seat's
own knowledge then (``greedy.ranked_moves`` of its information set): the
**regret**, in the cost function's points.  A world whose hands make every
play the greedy choice has regret 0.

``believed_world`` samples worlds and keeps one with probability
``exp(-regret / temperature)`` (rejection sampling: the kept worlds are drawn
in proportion to that likelihood), giving up after ``tries`` draws with the
least-regret one drawn.  It is an experiment of issue 31 (bench/search.py,
variants ``*-infer``; docs/bots.md): whether a search that weighs worlds by the
others' plays beats one that does not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.engine.cards import Card, hand_value
from app.engine.deal import Deal
from app.engine.errors import MoveError, SetupError
from app.engine.inference import faced_tables
from app.engine.moves import SWEEP_CREDIT, Move, move_points
from app.engine.results import LogEntry
from app.engine.turns import plays_with_current_hands

from .greedy import ranked_moves
from .knowledge import Knowledge, knowledge_of
from .strong import chance_odds, deal_costs


@dataclass(frozen=True, slots=True)
class Belief:
    """The others' plays since the current packet came, and the position before them."""

    k: Knowledge
    plays: tuple[LogEntry, ...]
    start_table: tuple[Card, ...]
    """The table the first of ``plays`` was made on."""
    start_capturer: int | None
    """The last capturer before the first of ``plays``."""
    played: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it played in ``plays`` (back in its hand at the start)."""

    def regret(self, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> float:
        """How far the others' plays fall short of the greedy best in this world (≥ 0)."""
        k = self.k
        deal = self._resumed(hands, stock)
        if deal is None:
            return 0.0  # a position the engine cannot resume (a constructed one)
        total = 0.0
        for entry in self.plays:
            if entry.seat != k.me:
                legal = deal.legal()
                if len(legal) > 1:
                    ranked = ranked_moves(knowledge_of(deal.information_set(entry.seat)), legal)
                    actual = Move.of(entry.card, entry.taken)
                    cost = next((c for c, m in ranked if m.move == actual), ranked[0][0])
                    total += cost - ranked[0][0]
            try:
                deal.apply(entry.card, entry.taken)
            except MoveError:
                return total  # the world cannot replay the log: judge what it could
        return total

    def log_likelihood(
        self, hands: Sequence[Sequence[Card]], stock: Sequence[Card], temperature: float
    ) -> float:
        """The log of how likely the others' plays are in this world (≤ 0): each play's
        probability under a softmax of the greedy cost at ``temperature``
        (``exp(-cost / T)`` over the sum for every legal move), the mover judging traps by
        the odds over the cards it could not see *then*, in this world (the other hands
        and the stock at that moment; ``mover_costs``).

        Unlike ``regret`` it counts the alternatives: a hand that offered several moves
        as good as the one played explains that play less surely than a hand that
        offered none.  Used as an importance weight of the world (``exp`` of it,
        app/coach/rating.py), not to reject worlds.
        """
        k = self.k
        deal = self._resumed(hands, stock)
        if deal is None:
            return 0.0
        total = 0.0
        for entry in self.plays:
            if entry.seat != k.me:
                kinds = deal.legal_kinds()
                if len(kinds) > 1:
                    costs = mover_costs(deal, kinds)
                    actual = costs.get(Move.of(entry.card, entry.taken))
                    if actual is not None:
                        low = min(costs.values())
                        norm = sum(math.exp((low - c) / temperature) for c in costs.values())
                        total += (low - actual) / temperature - math.log(norm)
            try:
                deal.apply(entry.card, entry.taken)
            except MoveError:
                return total
        return total

    def _resumed(self, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> Deal | None:
        """The world at the first of ``plays``: the hands then (those of the world plus
        the cards played since), the table then; None if the engine cannot resume it."""
        k = self.k
        start_hands = [list(h) + list(p) for h, p in zip(hands, self.played, strict=True)]
        try:
            return Deal.resume(
                k.rules,
                k.players,
                k.dealer,
                start_hands,
                self.start_table,
                stock,
                self.plays[0].seat,
                last_capturer=self.start_capturer,
                set_aside_spades=k.set_aside_spades,
                set_aside_other=k.info.set_aside_other,
            )
        except SetupError:
            return None


def mover_costs(deal: Deal, kinds: Mapping[Move, str]) -> dict[Move, float]:
    """The greedy cost of each legal move of the seat to move in ``deal`` (``kinds``:
    ``deal.legal_kinds()``), trap odds taken over the cards that seat cannot see (the
    other hands and the stock of this deal), as the greedy bot judges them."""
    seat = deal.to_move
    assert seat is not None
    unseen = [0] * 15  # per hand value (R1.4: 2 to the ace's 14)
    for s, hand in enumerate(deal.hands):
        if s != seat:
            for c in hand:
                unseen[hand_value(c)] += 1
    for c in deal.stock:
        unseen[hand_value(c)] += 1
    costs = deal_costs(deal, seat, chance_odds(unseen, deal.rules))
    nordic = deal.rules.nordic
    return {
        move: costs.cost(
            move[0], move[1], kind, move_points(move[0], move[1], nordic), SWEEP_CREDIT[kind]
        )
        for move, kind in kinds.items()
    }


def belief_of(k: Knowledge) -> Belief | None:
    """The others' plays made with the hands held now, or None when there are none."""
    info = k.info
    history = info.history
    recent = plays_with_current_hands(info.rules, info.players, len(history), sum(info.hand_counts))
    if not recent:
        return None
    plays = tuple(history[len(history) - recent :])
    if all(p.seat == k.me for p in plays):
        return None
    tables = faced_tables(info.table, plays)
    if tables is None:
        return None
    start_capturer = info.last_capturer
    if any(p.taken for p in plays):
        start_capturer = next(
            (p.seat for p in reversed(history[: len(history) - recent]) if p.taken), None
        )
    played: list[list[Card]] = [[] for _ in range(info.players)]
    for p in plays:
        played[p.seat].append(p.card)
    return Belief(k, plays, tuple(tables[0]), start_capturer, tuple(map(tuple, played)))


def believed_world(
    k: Knowledge,
    belief: Belief | None,
    rng: random.Random,
    temperature: float,
    tries: int,
) -> tuple[list[list[Card]], list[Card]]:
    """A world kept with probability ``exp(-regret / temperature)``; after ``tries``
    draws, the least-regret one."""
    best: tuple[float, list[list[Card]], list[Card]] | None = None
    for _ in range(max(1, tries)):
        hands, stock = k.info.sample_hidden(rng, k.lacks)
        if belief is None:
            return hands, stock
        r = belief.regret(hands, stock)
        if rng.random() < math.exp(-r / temperature):
            return hands, stock
        if best is None or r < best[0]:
            best = (r, hands, stock)
    assert best is not None
    return best[1], best[2]
