"""A player that always plays the coach's best move (issue 31's benchmark, bench/search.py).

It asks of every position what the analysis asks of a play (``rating.py``): from
the seat's information set only, the candidates (every legal move when there are
at most ``max_candidates``, else the greedy ranking's best that many) are played
in the same sampled worlds with the same playout randomness, two rounds of the
table and then the outlook, the clearly worse ones pruned on the way; the one
with the fewest expected points is played.  There is no move played yet to rate,
so there is no resampling around a label threshold: the search stops after
``samples`` worlds (the analysis's first round).  Whether this beats the live
strong bot measures the coach's search as a player (docs/bots.md, "The coach").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

from . import worlds
from .rating import DEFAULT, Settings, candidates, sample_values


def coach_move(
    info: InformationSet,
    legal: Sequence[LegalMove],
    rng: random.Random,
    settings: Settings = DEFAULT,
) -> LegalMove:
    """The move of ``legal`` the coach rates best for ``info``'s seat (to move)."""
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    if len(legal) == 1:
        return legal[0]
    k = worlds.knowledge(info)
    moves = candidates(k, legal, None, settings.max_candidates)
    means, _ = sample_values(k, moves, None, rng, settings)
    return min(means, key=lambda m: (means[m], moves.index(m)))
