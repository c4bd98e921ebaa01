"""The coach's one door into the bots' search: sampled worlds and playouts.

The coach rates a play by the same means the ``strong`` bot chooses one
(app/bots/strong.py): the cards the seat cannot see are dealt at random,
consistently with what it knows and with what the others' plays prove they
lack (``knowledge_of``), and each candidate move is played out in the same
worlds with the bots' playout policy.  Every use of the search goes through
the functions here, so a stronger search replaces them in one place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.bots.belief import Belief, belief_of, believed_world
from app.bots.greedy import ranked_moves
from app.bots.knowledge import Knowledge, knowledge_of
from app.bots.strong import build_deal, playout, sample_world
from app.bots.values import points_so_far
from app.engine.cards import Card
from app.engine.deal import Deal
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

__all__ = [
    "Knowledge",
    "belief",
    "believed_world",
    "candidates",
    "finish",
    "knowledge",
    "side_points_so_far",
    "world",
]

TO_THE_END = 10**6
"""Plies a playout may last: to the end of the deal."""


def knowledge(info: InformationSet) -> Knowledge:
    """What the seat of ``info`` knows, with the gaps the deal's plays prove (R4.1, V6)."""
    return knowledge_of(info)


def side_points_so_far(info: InformationSet) -> int:
    """The deal points of ``info``'s seat so far, under V1 its team's (R6.2), from the
    log's plays (public facts; V5's bordstabbe, charged before the first play, is not
    in the log and not counted)."""
    rules = info.rules
    if not rules.partnership:
        return points_so_far(info)
    team = rules.team_of(info.seat)
    return sum(points_so_far(info, s) for s in range(info.players) if rules.team_of(s) == team)


def candidates(k: Knowledge, legal: Sequence[LegalMove]) -> list[LegalMove]:
    """``legal`` ranked cheapest first by the greedy bot's one-ply cost."""
    return [m for _, m in ranked_moves(k, legal)]


def world(k: Knowledge, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """One way the hidden cards may lie (other hands, stock), consistent with ``k``."""
    return sample_world(k, rng)


def belief(k: Knowledge) -> Belief | None:
    """The others' latest plays, to weigh worlds by (``app.bots.belief``)."""
    return belief_of(k)


def finish(
    k: Knowledge,
    hands: Sequence[Sequence[Card]],
    stock: Sequence[Card],
    move: LegalMove,
    seed: int,
    plies: int | None = None,
) -> Deal:
    """The world (``hands``, ``stock``) with ``move`` played and then ``plies`` more
    (None: to the end of the deal) by the search's playout policy (its randomness
    from ``seed``)."""
    deal = build_deal(k, hands, stock)
    deal.play_legal(move.move, move.kind)
    playout(deal, k.me, random.Random(seed), TO_THE_END if plies is None else plies)
    return deal
