"""The coach's expected points for a what-if in a shared review (issue 31).

``CoachEvaluator`` is the review's ``MoveEvaluator`` (app/review/evaluator.py),
plugged in where the features are built (app/features.py): for the position of a
branch it values **every** legal move by the analysis's own method
(``rating.sample_values``): worlds dealt from the seat's information set only,
every move played in the same worlds with the same playout randomness, two
rounds of the table by the strong bot's playout policy (to the end once at most
three rounds of cards are left) and then the outlook.  Unlike the analysis it
drops no move (every legal move gets a number) and draws a fixed number of
worlds (``samples``, no resampling around a label threshold: there is no label),
so that a what-if answers quickly and the same position of the same review gets
the same numbers (the seed comes from the review, app/review/whatif.py).

The number is the points the seat's side is expected to end the deal with: its
points so far (from the log; V5's bordstabbe is not in the log and not counted)
plus the mean gain from here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

from . import worlds
from .rating import DEFAULT, Settings, sample_values

WHATIF_SAMPLES = 48
"""Worlds per what-if position: the analysis's first round (``Settings.samples``).
With two-round playouts a 4-player position with a dozen legal moves takes a few
tens of milliseconds of CPU (docs/bots.md, "The coach")."""


@dataclass(frozen=True, slots=True)
class CoachEvaluator:
    """Every legal move's expected points by the coach's method (module doc)."""

    samples: int = WHATIF_SAMPLES

    def settings(self, moves: int) -> Settings:
        """The analysis's settings with every move kept and ``samples`` worlds."""
        return Settings(
            samples=self.samples,
            max_samples=self.samples,
            max_candidates=moves,
            prune_after=self.samples + 1,  # never: every move is shown with its number
            rounds=DEFAULT.rounds,
        )

    def __call__(self, info: InformationSet, legal: Sequence[LegalMove], seed: int) -> list[float]:
        if not legal:
            return []
        k = worlds.knowledge(info)
        moves = list(legal)
        means, _ = sample_values(k, moves, None, random.Random(seed), self.settings(len(moves)))
        now = worlds.side_points_so_far(info)
        return [round(now + means[m], 2) for m in moves]
