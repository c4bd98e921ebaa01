"""How a result is scored in a tournament: lower totals are better (R6.4).

Two comparisons, both pure:

- **At a table** (Swiss): each player gets one point for every player at the table
  with a higher match total, half a point for every tie.  A table of four gives out
  six points, whoever sits at it; a bot's seat is scored like anyone's, but only
  people stand in the standings.
- **On a board** (duplicate): a board's seat is held by one player at every table,
  each with the same cards.  Matchpoints: one for every other holder of those cards
  with a higher total, half for every tie.  Points difference: the mean total of the
  other holders minus one's own (positive is better than the field), rounded to a
  tenth so that a sum of them is the same in any order.
"""

from __future__ import annotations

from collections.abc import Sequence


def beaten(totals: Sequence[int]) -> list[float]:
    """Each total's points against the others in ``totals``: one for each higher, half
    for each equal (itself aside).  Used for a table and for a board's seat alike."""
    return [
        sum(1.0 if other > mine else 0.5 if other == mine else 0.0 for other in totals)
        - 0.5  # itself, counted as a tie above
        for mine in totals
    ]


def points_difference(totals: Sequence[int]) -> list[float]:
    """Each total against the mean of the others' (others' mean minus one's own);
    0 for a holder with nobody to compare with."""
    n = len(totals)
    if n < 2:
        return [0.0] * n
    whole = sum(totals)
    return [round((whole - mine) / (n - 1) - mine, 1) for mine in totals]
