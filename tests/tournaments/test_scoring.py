"""app/tournaments/scoring.py: points at a table (or a board's seat) and the points
difference, checked against sums that must be conserved and a pair-by-pair count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.scoring import beaten, points_difference

TOTALS = st.lists(st.integers(min_value=-20, max_value=60), min_size=1, max_size=8)


def pairwise_points(totals: list[int]) -> list[float]:
    """The points each total earns, one pair at a time: the lower total of a pair takes
    the point (lower is better), a tie splits it."""
    points = [0.0] * len(totals)
    for i in range(len(totals)):
        for j in range(i + 1, len(totals)):
            if totals[i] < totals[j]:
                points[i] += 1
            elif totals[j] < totals[i]:
                points[j] += 1
            else:
                points[i] += 0.5
                points[j] += 0.5
    return points


@settings(max_examples=100, deadline=None)
@given(TOTALS)
def test_beaten_is_the_pairwise_count_and_gives_out_n_choose_2(totals: list[int]) -> None:
    """Each pair of seats hands out exactly one point, so a table of n gives n(n-1)/2
    whoever sits at it, and each seat's share is its own pairwise tally."""
    points = beaten(totals)
    n = len(totals)
    assert points == pairwise_points(totals)
    assert sum(points) == n * (n - 1) / 2


def test_beaten_rewards_the_lowest_total() -> None:
    """Lower totals are better (R6.4): the lowest of three beats both others."""
    assert beaten([30, 10, 20]) == [0.0, 2.0, 1.0]
    assert beaten([5, 5, 5, 5]) == [1.5, 1.5, 1.5, 1.5]
    assert beaten([7]) == [0.0]


@settings(max_examples=100, deadline=None)
@given(TOTALS)
def test_points_difference_is_the_others_mean_minus_ones_own(totals: list[int]) -> None:
    """Each value is (the mean of the other totals) - (own total), to a tenth; the
    unrounded values sum to zero over the holders, so the rounded ones can only be
    off by the rounding (at most 0.05 each)."""
    diffs = points_difference(totals)
    n = len(totals)
    if n < 2:
        assert diffs == [0.0] * n
        return
    for i, mine in enumerate(totals):
        others = totals[:i] + totals[i + 1 :]
        exact = sum(others) / len(others) - mine
        assert abs(diffs[i] - exact) <= 0.05 + 1e-9
    assert abs(sum(diffs)) <= 0.05 * n + 1e-9


@settings(max_examples=50, deadline=None)
@given(TOTALS, st.integers(min_value=-10, max_value=10))
def test_points_difference_ignores_a_shift_of_every_total(totals: list[int], shift: int) -> None:
    """Only how far one is from the field counts: moving every total alike changes
    nothing, and a lower total never has the smaller difference."""
    diffs = points_difference(totals)
    assert points_difference([t + shift for t in totals]) == diffs
    for i, a in enumerate(totals):
        for j, b in enumerate(totals):
            if a < b:
                assert diffs[i] >= diffs[j]


def test_points_difference_examples() -> None:
    """Two seats: each is the other's total minus one's own; one seat alone: 0."""
    assert points_difference([10, 16]) == [6.0, -6.0]
    assert points_difference([0, 0, 0, 1]) == [0.3, 0.3, 0.3, -1.0]
    assert points_difference([4]) == [0.0]
    assert points_difference([]) == []
