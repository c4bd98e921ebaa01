"""The published thresholds that turn a play's loss (in points) into a label.

A play's loss is how many more points its player is expected to end the deal
with than after the best move (lower points are better, R6.4).  The thresholds
were calibrated on the strong bot's own plays (docs/bots.md, "The coach"):
at the default settings most of them stay unlabelled, as a good player's
should, while the greedy and random bots' errors are labelled.
"""

from __future__ import annotations

from typing import Literal, TypedDict

Label = Literal["none", "inaccuracy", "mistake", "blunder"]


class Thresholds(TypedDict):
    """The least loss (points) of each label; a loss below ``inaccuracy`` is none."""

    inaccuracy: float
    mistake: float
    blunder: float


THRESHOLDS: Thresholds = {"inaccuracy": 1.0, "mistake": 2.5, "blunder": 5.0}
"""Calibrated in docs/bots.md ("The coach"): see there before changing."""


def label(loss: float, thresholds: Thresholds = THRESHOLDS) -> Label:
    """The label of a play that lost ``loss`` points: it never falls as the loss grows."""
    if loss >= thresholds["blunder"]:
        return "blunder"
    if loss >= thresholds["mistake"]:
        return "mistake"
    if loss >= thresholds["inaccuracy"]:
        return "inaccuracy"
    return "none"
