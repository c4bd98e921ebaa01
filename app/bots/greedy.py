"""The ``greedy`` bot: a one-ply heuristic from the seat's own view.

Each legal move gets an expected cost for the bot's side (lower is better,
like the score, R6.4), and the cheapest move is played:

* **immediate penalty**: card points taken with the played card (R6.1), +5 or
  +10 for a sweep or double sweep made (R4.2, R4.3);
* **traps left**: the table after the move is offered to the next player
  (R1.3; after the packet's last card, the dealer's left with a fresh hand and
  the pictures cleaned away, R2.5).  Under R4.1 that player *must* sweep when
  holding a card of a sweeping value, which gives the bot -5 as preceding
  player (-10 for a lone card taken by its twin).  The chance is
  hypergeometric over the unseen cards and the next hand's size, leaving out
  the values that player has shown it lacks (``knowledge.infer_lacks``);
* **points left behind**: the point cards still in hand are a liability (each
  will be played, perhaps as a capture), so are those on the table (someone,
  maybe the bot, will take them); the weights are below;
* **the end award** (R5.1): in the last packet the last capturer receives the
  table rest and the set-aside spade pictures unless someone captures later.

Forced sweeps (traps sprung on the bot) need no special case: only sweeps are
legal then, and the cheapest one (no double, fewest points) wins.

``Costs`` is shared with the search's playout policy (``strong.py``), which
passes the next hand of its sampled world instead of the odds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.engine.cards import Card, hand_value
from app.engine.moves import (
    CAPTURE,
    CREEP,
    DOUBLE_SWEEP,
    POINTS,
    SWEEP,
    SWEEP_CREDIT,
    sweep_kind,
)
from app.engine.rules import RuleSet
from app.engine.turns import next_turn, preceding, set_aside

from .knowledge import Knowledge, prob_none, read_view, sweeping_values

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
    ``counts_after`` are the hand sizes once the mover's card has left its hand.
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
        counts_after: Sequence[int],
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
        nxt, size, new_packet = next_turn(players, dealer, counts_after, me, stock_count)
        self.nxt = nxt
        self.size = size
        self.new_packet = new_packet
        self.ends = nxt is None
        self.aside_pts = _points(spades_aside, self.pts)
        # R5.1 / R5.3: who gets the end award if nobody captures any more
        owner_creep = last_capturer if last_capturer is not None else (me if self.ends else dealer)
        self.award_mine_if_capture = True
        self.award_mine_if_creep = team(owner_creep) == my_team
        self.last_packet = stock_count == 0 and not new_packet and not self.ends
        self.keep = KEEP_CAPTURE ** sum(counts_after)
        self.nxt_opponent = nxt is not None and team(nxt) != my_team
        self.forced = rules.forced_sweep
        self.trap = trap

    def cost(self, card: Card, take: Sequence[Card], kind: str) -> float:
        """The cost of one legal move; ``kind`` is what the engine says it does."""
        pts = self.pts
        played_pts = pts[card]
        # the card leaves the hand: its points are no longer a hand liability
        cost = -HAND_WEIGHT * played_pts
        if take:
            cost += played_pts
            for c in take:
                cost += pts[c]
            if kind != CAPTURE:  # a sweep (R4.2), perhaps a double (R4.3)
                if not self.same_team_preceding:
                    cost += SWEEP_CREDIT[kind]
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


def view_trap_odds(k: Knowledge) -> TrapOdds:
    """Expected sweep credit when the next player's hand is unknown (hypergeometric)."""

    def odds(offered: Sequence[Card], nxt: int, size: int, new_packet: bool) -> float:
        values = sweeping_values(offered, k.rules)
        if not values:
            return 0.0
        lacks: frozenset[int] = frozenset() if new_packet else k.lacks.get(nxt, frozenset())
        if lacks.issuperset(values):
            return 0.0
        # cards of values the next player is known to lack are not in its hand
        pool = sum(1 for c in k.unseen if hand_value(c) not in lacks)
        wanted = set(values) - lacks
        good = sum(1 for c in k.unseen if hand_value(c) in wanted)
        value = SWEEP_VALUE * (1.0 - prob_none(pool, good, size))
        lone = offered[0]
        if len(offered) == 1 and sweep_kind(lone, (lone,)) == DOUBLE_SWEEP:
            # a lone card: a double when the twin is the only sweeper held (R4.3)
            twins = k.unseen.count(lone) if hand_value(lone) in wanted else 0
            if twins and pool:
                p_twin_only = (size / pool) * prob_none(pool - 1, good - twins, size - 1)
                value += (DOUBLE_SWEEP_VALUE - SWEEP_VALUE) * p_twin_only
        return value

    return odds


def ranked_moves(
    view: Mapping[str, Any], k: Knowledge | None = None
) -> list[tuple[float, dict[str, Any]]]:
    """Every legal move with its cost, cheapest first (stable: ties keep legal order)."""
    k = k or read_view(view)
    counts = list(k.hand_counts)
    counts[k.me] -= 1
    costs = Costs(
        k.rules,
        k.players,
        k.dealer,
        k.me,
        k.table,
        counts,
        k.stock_count,
        k.last_capturer,
        k.set_aside_spades,
        view_trap_odds(k),
    )
    scored = [
        (costs.cost(m["card"], m["take"], _kind(m)), i, m) for i, m in enumerate(view["legal"])
    ]
    scored.sort(key=lambda t: (t[0], t[1]))
    return [(c, m) for c, _, m in scored]


def _kind(move: Mapping[str, Any]) -> str:
    """What a legal move of the view does: the engine lists it with each move."""
    kind = move.get("kind")
    if kind is None:  # a hand-made view without kinds: a take is at least a capture
        return CAPTURE if move["take"] else CREEP
    return str(kind)


def choose(view: Mapping[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """The cheapest legal move (deterministic: the rng is not needed)."""
    legal: list[dict[str, Any]] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    return ranked_moves(view)[0][1]
