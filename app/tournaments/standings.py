"""An event's standings, computed from its stored results alone (pure).

A result is one seat's match total at one table of one stage (a Swiss round, or a
duplicate board).  Standings are recomputed from all of them every time, never kept
as running sums, so a result stored twice (it cannot be: one row per seat and
table) or read in another order gives the same table.

- Swiss: ``score`` sums each round's points at the player's table (scoring.beaten);
  ``tiebreak`` sums the points difference at those tables.
- Duplicate: a board counts only once every table has played it (the caller passes
  those boards in ``complete``: until then nobody may learn a result on it).
  ``score`` sums the matchpoints, or the points differences with ``scoring`` =
  ``difference``; ``tiebreak`` is the other of the two.

Bots' seats are compared like anyone's but stand nowhere.  Ties on score and
tiebreak share a place; the order among them is by name, for a stable page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .scoring import beaten, points_difference

Scoring = Literal["matchpoints", "difference"]


@dataclass(frozen=True, slots=True)
class Result:
    stage: int
    """The round or board (from 1)."""
    table: int
    """The table's number in its stage (from 1)."""
    seat: int
    entrant: str | None
    """The entrant who held the seat; None for a bot."""
    total: int
    left: bool = False
    """A stand-in bot was playing the person's seat when the match ended."""


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    entrant: str
    score: float
    tiebreak: float
    played: int
    """Tables (Swiss) or boards (duplicate) counted so far."""


def _grouped(results: Iterable[Result], key: str) -> dict[tuple[int, int], list[Result]]:
    groups: dict[tuple[int, int], list[Result]] = defaultdict(list)
    for r in results:
        groups[(r.stage, r.table if key == "table" else r.seat)].append(r)
    return groups


def _tenths(x: float) -> int:
    """A point count in whole tenths: sums of them are exact and the same in any order
    (floats summed in another order may differ in their last bits)."""
    return round(x * 10)


def _ranked(
    score: Mapping[str, int], tiebreak: Mapping[str, int], played: Mapping[str, int]
) -> list[Standing]:
    """Places from scores and tiebreaks in tenths (equal pairs share a place)."""
    order = sorted(score, key=lambda e: (-score[e], -tiebreak[e], e))
    rows: list[Standing] = []
    for i, e in enumerate(order):
        same = i > 0 and (score[order[i - 1]], tiebreak[order[i - 1]]) == (score[e], tiebreak[e])
        place = rows[-1].place if same else i + 1
        rows.append(Standing(place, e, score[e] / 10, tiebreak[e] / 10, played[e]))
    return rows


def swiss_standings(entrants: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """Every entrant's place after the rounds in ``results`` (a table counts once all
    its seats are in: the caller passes whole tables)."""
    score = dict.fromkeys(entrants, 0)
    tiebreak = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    for group in _grouped(results, "table").values():
        totals = [r.total for r in group]
        for r, points, diff in zip(group, beaten(totals), points_difference(totals), strict=True):
            if r.entrant in score:
                score[r.entrant] += _tenths(points)
                tiebreak[r.entrant] += _tenths(diff)
                played[r.entrant] += 1
    return _ranked(score, tiebreak, played)


def duplicate_standings(
    entrants: Sequence[str],
    results: Iterable[Result],
    complete: set[int],
    scoring: Scoring = "matchpoints",
) -> list[Standing]:
    """Every entrant's place on the boards in ``complete`` (every table has played them)."""
    score = dict.fromkeys(entrants, 0)
    tiebreak = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    counted = (r for r in results if r.stage in complete)
    for group in _grouped(counted, "seat").values():
        totals = [r.total for r in group]
        points, diffs = beaten(totals), points_difference(totals)
        if scoring == "difference":
            points, diffs = diffs, points
        for r, p, d in zip(group, points, diffs, strict=True):
            if r.entrant in score:
                score[r.entrant] += _tenths(p)
                tiebreak[r.entrant] += _tenths(d)
        for r in group:
            if r.entrant in played:
                played[r.entrant] += 1
    return _ranked(score, tiebreak, played)


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One holder of a duplicate board's seat against everyone who held those cards."""

    board: int
    seat: int
    table: int
    entrant: str | None
    total: int
    matchpoints: float
    difference: float


def board_scores(results: Iterable[Result], complete: set[int]) -> list[BoardScore]:
    """Each result on the boards in ``complete``, scored against the field that held the
    same cards (both ways, whichever the event ranks by): a duplicate event's published
    performance per board.  Ordered by board, seat and table."""
    out: list[BoardScore] = []
    counted = (r for r in results if r.stage in complete)
    for (board, seat), group in sorted(_grouped(counted, "seat").items()):
        totals = [r.total for r in group]
        for r, p, d in zip(group, beaten(totals), points_difference(totals), strict=True):
            score = BoardScore(board, seat, r.table, r.entrant, r.total, p, d)
            out.append(score)
    return sorted(out, key=lambda s: (s.board, s.seat, s.table))
