"""Why the coach rates a play as it does (issue 47): a consequence a player can check.

While the coach plays every candidate out in the sampled worlds
(``rating.sample_values``) it keeps what each playout did, in a small ``Trace`` (so
the search is hardly slowed); the two moves a reason compares are then read
(``Outcome``).
For a play that lost points against the best move, ``explain`` splits the two
moves' values into where the points came from over the playout, for the seat's
side (its team under V1; lower points are better, R6.4):

* ``sweeps``: +5 (+10 for a double) for each sweep the side makes (R4.2, R4.3);
* ``conceded``: -5 (-10) for each sweep made right after one of the side's plays;
* ``captures``: the card points the side captures during the playout (R6.1);
* ``award``: the card points left to it as the last capturer at the deal's end (R5.1);
* ``later``: its even share of the card points still in play when the playout
  stopped (``rating.outlook``; zero when playouts go to the deal's end).

The five add up to each playout's value, so their mean differences add up to the
loss (unweighted worlds).  The reason is the part that costs most, with its mean
points and the share of the worlds in which it was not zero after each of the two
moves, and the likely continuation after the move played: the plays most often
seen next, step by step (the mode among the worlds that followed the line so far),
each with the share of all the worlds that followed the line that far.

Only the worlds drawn from the seat's information are read, never the real hidden
cards: two deals that differ only in cards the seat could not see get the same
reason (tests/coach/test_reason.py).  The continuation's cards are those of the
sampled worlds, stated with their odds.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from app.engine.deal import Deal, MoveResult
from app.engine.moves import DOUBLE_SWEEP, POINTS, SWEEP
from app.engine.rules import RuleSet

PARTS = ("sweeps", "conceded", "captures", "award", "later")
"""Where a playout's points come from, in the order ties are broken."""

LINE_PLAYS = 4
"""Plays at most in the likely continuation (it stops after the seat's own next play)."""
LINE_ODDS = 0.1
"""A continuation goes on only while at least this share of the worlds followed it."""

Play = tuple[int, str, str, tuple[str, ...]]
"""One play of a playout: seat, card, kind (creep, capture, sweep, double_sweep), take."""


class Trace(NamedTuple):
    """One candidate's playout in one world, as a reason may read it later: the side's
    points by their source, and references to the few plays it may need (kept small:
    one is made for every playout of the analysis)."""

    made: int
    """Points of the sweeps the side made (R4.2, R4.3)."""
    conceded: int
    """Points of the sweeps made right after the side's plays (zero or negative)."""
    card_points: int
    """Card points the side captured, the end award included."""
    award: int
    """Card points of the end award, when it went to the side (R5.1)."""
    value: float
    """The playout's value (``rating.outlook``)."""
    results: Sequence[MoveResult] | None
    """The playout's plays, the candidate first: kept only when a sweep is to be named."""
    head: Sequence[MoveResult] | None
    """The plays after the candidate (at most ``LINE_PLAYS``): kept for the move played."""


def trace(end: Deal, value: float, side: Sequence[int], line: bool) -> Trace:
    """What a reason may later read of a playout (``end``, the world's deal, starts at
    zero points; its first result is the candidate move); ``line``: keep the plays
    after the move too."""
    scores = end.scores
    if len(side) == 1:
        s = scores[side[0]]
        made, conceded, card_points = s.sweeps_made_points, s.sweeps_conceded_points, s.card_points
    else:
        made = sum(scores[x].sweeps_made_points for x in side)
        conceded = sum(scores[x].sweeps_conceded_points for x in side)
        card_points = sum(scores[x].card_points for x in side)
    award = 0
    if end.award is not None and end.award.seat in side:
        pts = POINTS[end.rules.nordic]
        award = sum(pts[c] for c in end.award.cards)
    results = end.results
    return Trace(
        made,
        conceded,
        card_points,
        award,
        value,
        results if made or conceded else None,
        results[1 : 1 + LINE_PLAYS] if line else None,
    )


class Outcome(NamedTuple):
    """What one candidate's playout did in one world, for the seat's side."""

    parts: tuple[float, float, float, float, float]
    """The playout's value split as ``PARTS`` (their sum is the value)."""
    sweeper: int | None
    """The first of the side's seats that swept (``sweeps``)."""
    sweeper_against: int | None
    """The first other seat that swept right after one of the side's plays (``conceded``)."""
    line: tuple[Play, ...]
    """The plays after the move, to the seat's own next play (at most ``LINE_PLAYS``)."""


@dataclass(frozen=True, slots=True)
class Side:
    """One move's figures for the reason's part over the sampled worlds."""

    odds: float
    """Share of the worlds in which the part was not zero."""
    points: float
    """The part's mean points."""
    seat: int | None
    """Who most often made it (a sweeper for ``sweeps`` and ``conceded``), else None."""


@dataclass(frozen=True, slots=True)
class Step:
    seat: int
    card: str
    kind: str
    take: tuple[str, ...]
    odds: float
    """Share of all the worlds that followed the continuation up to this play."""


@dataclass(frozen=True, slots=True)
class Reason:
    part: str
    """One of ``PARTS``: where most of the loss comes from."""
    points: float
    """That part's share of the loss (points)."""
    played: Side
    best: Side
    team: bool
    """The side is a team (V1): the figures are the partners' together."""
    line: tuple[Step, ...]
    """The likely continuation after the move played."""


def side_of(rules: RuleSet, players: int, me: int) -> tuple[int, ...]:
    """The seats whose points count as ``me``'s: its own, under V1 its team's (R6.2)."""
    if not rules.partnership:
        return (me,)
    team = rules.team_of(me)
    return tuple(s for s in range(players) if rules.team_of(s) == team)


def outcome(t: Trace, me: int, side: Sequence[int]) -> Outcome:
    """The parts of a playout's value for ``me``'s ``side``, from its trace."""
    sweeper = against = None
    for r in t.results or ():
        if r.kind == SWEEP or r.kind == DOUBLE_SWEEP:
            if sweeper is None and r.seat in side:
                sweeper = r.seat
            elif against is None and r.seat not in side and r.conceded_by in side:
                against = r.seat
    line: list[Play] = []
    for r in t.head or ():
        line.append((r.seat, r.card, r.kind, tuple(sorted(r.taken))))
        if r.seat == me:
            break
    later = t.value - (t.made + t.conceded + t.card_points)
    return Outcome(
        (float(t.made), float(t.conceded), float(t.card_points - t.award), float(t.award), later),
        sweeper,
        against,
        tuple(line),
    )


def _figures(outs: Sequence[Outcome], i: int) -> Side:
    values = [o.parts[i] for o in outs]
    who: Counter[int] = Counter()
    if PARTS[i] == "sweeps":
        who.update(o.sweeper for o in outs if o.sweeper is not None)
    elif PARTS[i] == "conceded":
        who.update(o.sweeper_against for o in outs if o.sweeper_against is not None)
    seat = min(who.items(), key=lambda kv: (-kv[1], kv[0]))[0] if who else None
    return Side(
        round(sum(1 for v in values if abs(v) > 1e-9) / len(values), 3),
        round(statistics.fmean(values), 2),
        seat,
    )


def continuation(outs: Sequence[Outcome]) -> tuple[Step, ...]:
    """The likely line after a move: at each step the play most often seen next among
    the worlds that followed the line so far (ties: the lowest seat, card, kind, take)."""
    pool = [o.line for o in outs]
    total = len(pool)
    steps: list[Step] = []
    for depth in range(LINE_PLAYS):
        counts = Counter(line[depth] for line in pool if len(line) > depth)
        if not counts:
            break
        play, count = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        odds = count / total
        if steps and odds < LINE_ODDS:
            break
        steps.append(Step(play[0], play[1], play[2], play[3], round(odds, 3)))
        pool = [line for line in pool if len(line) > depth and line[depth] == play]
    return tuple(steps)


def explain(
    played_traces: Sequence[Trace],
    best_traces: Sequence[Trace],
    me: int,
    rules: RuleSet,
    players: int,
) -> Reason:
    """Why the move played (its playouts' traces) lost against the best one (theirs):
    the part whose mean differs most against it, and the line after the move played."""
    if not played_traces or not best_traces:
        raise ValueError("a reason needs the playouts of both moves")
    side = side_of(rules, players, me)
    played = [outcome(t, me, side) for t in played_traces]
    best = [outcome(t, me, side) for t in best_traces]
    diffs = [
        statistics.fmean(o.parts[i] for o in played) - statistics.fmean(o.parts[i] for o in best)
        for i in range(len(PARTS))
    ]
    i = max(range(len(PARTS)), key=lambda j: (round(diffs[j], 9), -j))
    return Reason(
        PARTS[i],
        round(diffs[i], 2),
        _figures(played, i),
        _figures(best, i),
        len(side) > 1,
        continuation(played),
    )
