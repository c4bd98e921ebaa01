"""Expected final points of every legal move, from one seat's information: the coach's search.

``move_values(info, legal, rng, worlds=N)`` answers, for each move of
``legal``, the mean deal score (R6.2, lower is better) the seat of ``info``
ends the deal with when it plays that move now and every seat then plays the
strong bot's playout policy (``strong.policy_move``: the greedy costs, the
next hand of the world known) to the end of the deal.  It is the strong
bot's own sampling, without its shortcuts: every legal move (not only the
best few), no pruning, playouts to the end instead of a horizon, so that the
numbers are points, comparable between moves and between positions.

* **Worlds**: the hidden cards are dealt as the strong bot deals them
  (``InformationSet.sample_hidden`` with the gaps the plays prove, then
  ``Deal.from_information_set``): only what the seat may know is read.
* **Common random numbers**: every move is played in the same worlds with
  the same playout tie-breaks, so the differences between moves (the coach's
  *loss*) are not drowned in the luck of the deal.
* **Points**: the seat's deal score so far as the log shows it (card points
  taken, sweeps made and conceded; V5's bordstabbe, charged before the first
  play, is not in the log and not counted) plus what it scores from here.

Deterministic for a seeded ``rng`` and a fixed ``worlds``; ``budget_s``
(with ``clock``) instead stops after the worlds that fit the time, at least
one.  docs/bots.md, "The coach's search", describes it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from app.engine.fork import fork
from app.engine.infoset import InformationSet
from app.engine.moves import POINTS, SWEEP_CREDIT, LegalMove
from app.engine.turns import preceding

from .knowledge import knowledge_of
from .strong import build_deal, policy_move, sample_world

DEFAULT_WORLDS = 48
"""Worlds per position when neither ``worlds`` nor ``budget_s`` is given."""


def move_values(
    info: InformationSet,
    legal: Sequence[LegalMove],
    rng: random.Random,
    *,
    worlds: int | None = None,
    budget_s: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[LegalMove, float]:
    """Each move of ``legal`` (the moves of ``info``'s seat, to move) mapped to the
    expected deal score the seat ends with after it (lower is better).

    ``worlds`` fixes the number of sampled worlds (default ``DEFAULT_WORLDS``
    without a budget); with ``budget_s`` the sampling stops once that much time
    has passed by ``clock`` (or at ``worlds``, whichever comes first).
    Raises ValueError for no legal move.
    """
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    start = clock()
    limit = worlds if worlds is not None else (None if budget_s is not None else DEFAULT_WORLDS)
    so_far = points_so_far(info)
    k = knowledge_of(info)
    me = info.seat
    totals = [0.0] * len(legal)
    done = 0
    while limit is None or done < limit:
        if done and budget_s is not None and clock() - start >= budget_s:
            break
        hands, stock = sample_world(k, rng)
        world = build_deal(k, hands, stock)
        seed = rng.getrandbits(32)
        for i, move in enumerate(legal):
            deal = fork(world)
            deal.apply(move.card, move.take)
            playout_rng = random.Random(seed)
            while not deal.is_over:
                chosen, kind = policy_move(deal, playout_rng)
                deal.play_legal(chosen, kind)
            totals[i] += deal.scores[me].total
        done += 1
    return {move: so_far + total / done for move, total in zip(legal, totals, strict=True)}


def points_so_far(info: InformationSet, seat: int | None = None) -> int:
    """The deal score of ``seat`` (default ``info``'s) from the plays of the log (R6.1,
    R6.2, R4.2): public facts, so any seat's is known to every seat."""
    pts = POINTS[info.rules.nordic]
    me = info.seat if seat is None else seat
    total = 0
    for entry in info.history:
        if entry.seat == me and entry.taken:
            total += pts[entry.card] + sum(pts[c] for c in entry.taken)
        credit = SWEEP_CREDIT.get(entry.kind, 0)
        if credit:
            if entry.seat == me:
                total += credit
            elif preceding(entry.seat, info.players) == me:
                total -= credit
    return total
