"""The ``greedy`` bot: a one-ply heuristic from the seat's own knowledge.

Each legal move gets an expected cost for the bot's side (lower is better,
like the score, R6.4), and the cheapest move is played:

* **immediate penalty**: card points taken with the played card (R6.1), +5 or
  +10 for a sweep or double sweep made (R4.2, R4.3);
* **traps left**: the table after the move is offered to the next player
  (R1.3; after the packet's last card, the dealer's left with a fresh hand
  and the pictures cleaned away, R2.5: the engine's ``turn_after_play``).
  Under R4.1 that player *must* sweep when holding a card of a sweeping
  value, which gives the bot -5 as preceding player (-10 for a lone card
  taken by its twin).  The chance is
  hypergeometric over the unseen cards and the next hand's size, leaving out
  the values that player has shown it lacks (``inference.proven_lacks``);
* **points left behind**: the point cards still in hand are a liability (each
  will be played, perhaps as a capture), so are those on the table (someone,
  maybe the bot, will take them); the weights are below;
* **the end award** (R5.1): in the last packet the last capturer receives the
  table rest and the set-aside spade pictures unless someone captures later.

What a move takes, what it is worth and whether it sweeps are the engine's
facts about it (``LegalMove.kind``, ``points``, ``sweep``): the bot weighs
them, it does not work them out.  Forced sweeps (traps sprung on the bot)
need no special case: only sweeps are legal then, and the cheapest one (no
double, fewest points) wins.

``Costs`` is shared with the search's playout policy (``strong.py``), which
passes the next hand of its sampled world instead of the odds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from app.engine.cards import Card, hand_value
from app.engine.infoset import InformationSet
from app.engine.moves import (
    CAPTURE,
    DOUBLE_SWEEP,
    POINTS,
    SWEEP,
    SWEEP_CREDIT,
    LegalMove,
    sweep_kind,
)
from app.engine.rules import RuleSet
from app.engine.takes import sweeping_values
from app.engine.turns import award_seat, preceding, set_aside, turn_after_play

from .knowledge import Knowledge, knowledge_of, prob_none

SWEEP_VALUE = SWEEP_CREDIT[SWEEP]
"""What an ordinary sweep is worth to its maker (R4.2), from the engine."""
DOUBLE_SWEEP_VALUE = SWEEP_CREDIT[DOUBLE_SWEEP]

HAND_WEIGHT = 0.35
"""Share of a point card in hand expected to end up in the bot's own pile."""
TABLE_WEIGHT = 0.15
"""Share of a point card on the table expected to end up in the bot's own pile."""
KEEP_CAPTURE = 0.6
"""Chance that one later play of the last packet does not capture (end award risk)."""

TrapOdds = Callable[[Sequence[Card], int, int, bool], float]
"""(offered table, next seat, its hand size, new packet) -> expected sweep credit (>= 0)."""


class Costs:
    """Move costs from one position for the player to move (lower is better for its side).

    Everything that does not depend on the move (who moves next, the end award
    odds, the team of the preceding player) is worked out once here, because
    the search asks for the cost of every legal move at every playout step.
    ``hand_counts`` are the hand sizes before the move, the mover's card included.
    """

    __slots__ = (
        "pts",
        "table",
        "n_table",
        "same_team_preceding",
        "ends",
        "nxt_opponent",
        "size",
        "new_packet",
        "last_packet",
        "award_mine_if_capture",
        "award_mine_if_creep",
        "keep",
        "aside_pts",
        "forced",
        "trap",
        "nxt",
        "rules",
    )

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        dealer: int,
        me: int,
        table: Sequence[Card],
        hand_counts: Sequence[int],
        stock_count: int,
        last_capturer: int | None,
        spades_aside: Sequence[Card],
        trap: TrapOdds,
    ) -> None:
        team = rules.team_of
        my_team = team(me)
        self.rules = rules
        self.pts = POINTS[rules.nordic]
        self.table = table
        self.n_table = len(table)
        # a sweep conceded by a partner is no gain (only possible when V7 skips seats)
        self.same_team_preceding = team(preceding(me, players)) == my_team
        nxt, size, new_packet = turn_after_play(players, dealer, hand_counts, me, stock_count)
        self.nxt = nxt
        self.size = size
        self.new_packet = new_packet
        self.ends = nxt is None
        self.aside_pts = _points(spades_aside, self.pts)
        # R5.1 / R5.3: who gets the end award if nobody captures any more (the last
        # card of a deal is the dealer's, unless this one is it)
        owner_creep = award_seat(last_capturer, me if self.ends else dealer)
        self.award_mine_if_capture = True
        self.award_mine_if_creep = team(owner_creep) == my_team
        self.last_packet = stock_count == 0 and not new_packet and not self.ends
        self.keep = KEEP_CAPTURE ** (sum(hand_counts) - 1)  # plays left after this one
        self.nxt_opponent = nxt is not None and team(nxt) != my_team
        self.forced = rules.forced_sweep
        self.trap = trap

    def cost_of(self, move: LegalMove) -> float:
        """The cost of one legal move, from the engine's facts about it."""
        return self.cost(move.card, move.take, move.kind, move.points, move.sweep)

    def cost(self, card: Card, take: Sequence[Card], kind: str, points: int, sweep: int) -> float:
        """The cost of one legal move: ``kind``, ``points`` (card points it puts in the
        pile) and ``sweep`` (its sweep credit) are what the engine says it does."""
        pts = self.pts
        # the card leaves the hand: its points are no longer a hand liability
        cost = -HAND_WEIGHT * pts[card]
        if take:
            cost += points
            if kind != CAPTURE:  # a sweep (R4.2), perhaps a double (R4.3)
                if not self.same_team_preceding:
                    cost += sweep
                rest: list[Card] = []
            else:
                rest = list(self.table)
                for c in take:
                    rest.remove(c)
            award_mine = self.award_mine_if_capture
        else:
            rest = list(self.table)
            rest.append(card)
            award_mine = self.award_mine_if_creep
        if self.ends:  # the deal ends with this move (R5.1, R5.3)
            if award_mine:
                cost += _points(rest, pts) + self.aside_pts
            return cost
        if self.new_packet:
            # R2.5: the packet's clean-up; the spade pictures join the end award
            offered, spades_aside, _ = set_aside(rest, self.rules)
            cost += TABLE_WEIGHT * (_points(offered, pts) + _points(spades_aside, pts))
        else:
            offered = rest
            table_pts = _points(rest, pts)
            cost += TABLE_WEIGHT * table_pts
            if self.last_packet and award_mine:  # the end award (R5.1) may still come back
                cost += self.keep * (table_pts + self.aside_pts) * (1 - TABLE_WEIGHT)
        if self.forced and offered and self.nxt_opponent and self.nxt is not None:
            cost -= self.trap(offered, self.nxt, self.size, self.new_packet)
        return cost


def _points(cards: Sequence[Card], pts: Mapping[Card, int]) -> int:
    return sum(map(pts.__getitem__, cards))


def unseen_trap_odds(k: Knowledge) -> TrapOdds:
    """Expected sweep credit when the next player's hand is unknown (hypergeometric)."""

    def odds(offered: Sequence[Card], nxt: int, size: int, new_packet: bool) -> float:
        values = sweeping_values(offered, k.rules)
        if not values:
            return 0.0
        lacks: frozenset[int] = frozenset() if new_packet else k.lacks.get(nxt, frozenset())
        if lacks.issuperset(values):
            return 0.0
        # cards of values the next player is known to lack are not in its hand
        unseen = k.unseen
        pool = sum(1 for c in unseen if hand_value(c) not in lacks)
        wanted = set(values) - lacks
        good = sum(1 for c in unseen if hand_value(c) in wanted)
        value = SWEEP_VALUE * (1.0 - prob_none(pool, good, size))
        lone = offered[0]
        if len(offered) == 1 and sweep_kind(lone, (lone,)) == DOUBLE_SWEEP:
            # a lone card: a double when the twin is the only sweeper held (R4.3)
            twins = unseen.count(lone) if hand_value(lone) in wanted else 0
            if twins and pool:
                p_twin_only = (size / pool) * prob_none(pool - 1, good - twins, size - 1)
                value += (DOUBLE_SWEEP_VALUE - SWEEP_VALUE) * p_twin_only
        return value

    return odds


def ranked_moves(k: Knowledge, legal: Sequence[LegalMove]) -> list[tuple[float, LegalMove]]:
    """Every legal move with its cost, cheapest first (stable: ties keep legal order)."""
    costs = Costs(
        k.rules,
        k.players,
        k.dealer,
        k.me,
        k.table,
        k.hand_counts,
        k.stock_count,
        k.last_capturer,
        k.set_aside_spades,
        unseen_trap_odds(k),
    )
    scored = [(costs.cost_of(m), i, m) for i, m in enumerate(legal)]
    scored.sort(key=lambda t: (t[0], t[1]))
    return [(c, m) for c, _, m in scored]


def choose(
    info: InformationSet, legal: Sequence[LegalMove], rng: random.Random | None = None
) -> LegalMove:
    """The cheapest legal move (deterministic: the rng is not needed)."""
    if len(legal) == 1:
        return legal[0]
    return ranked_moves(knowledge_of(info), legal)[0][1]
