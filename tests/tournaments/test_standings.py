"""app/tournaments/standings.py: places from the stored results alone.  Scores are
checked against a pairwise count and conserved sums; places must be shared by ties,
ordered by score then tiebreak then name, and independent of the results' order."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.standings import (
    Result,
    Standing,
    board_scores,
    duplicate_standings,
    swiss_standings,
)

PEOPLE = ["ann", "bob", "cat", "dan", "eve", "fay"]


def lower_wins(totals: dict[str | None, int]) -> dict[str | None, float]:
    """Points at one table (or board seat), counted pair by pair: lower total wins."""
    points = dict.fromkeys(totals, 0.0)
    holders = list(totals)
    for i, a in enumerate(holders):
        for b in holders[i + 1 :]:
            if totals[a] == totals[b]:
                points[a] += 0.5
                points[b] += 0.5
            else:
                points[a if totals[a] < totals[b] else b] += 1
    return points


def check_places(rows: list[Standing]) -> None:
    """Sorted by score, then tiebreak, then name; a row's place is one more than the
    rows strictly ahead of it (ties on score and tiebreak share a place)."""
    assert rows == sorted(rows, key=lambda s: (-s.score, -s.tiebreak, s.entrant))
    for row in rows:
        ahead = [s for s in rows if (s.score, s.tiebreak) > (row.score, row.tiebreak)]
        assert row.place == len(ahead) + 1, rows


@st.composite
def swiss_rounds(draw: st.DrawFn, size: int) -> list[Result]:
    """Rounds of whole tables: the people shuffled into tables of ``size``, a bot
    (None) filling a short last table; totals 0..9."""
    results = []
    for stage in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(PEOPLE))
        for t, start in enumerate(range(0, len(order), size)):
            seats = [*order[start : start + size]]
            seats += [None] * (size - len(seats))
            for seat, who in enumerate(seats):
                results.append(Result(stage, t + 1, seat, who, draw(st.integers(0, 9))))
    return results


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 3).flatmap(swiss_rounds))
def test_swiss_scores_are_the_pairwise_points_and_places_follow_them(results) -> None:
    """Tables of 2 or 3 (whose points differences are whole or halves, so exact):
    each person's score is their pairwise points summed over tables, the field's
    scores add up to n(n-1)/2 per table less what the bots took, and the places are
    shared by ties and ordered by score then tiebreak."""
    rows = swiss_standings(PEOPLE, results)
    expected = dict.fromkeys(PEOPLE, 0.0)
    bots = 0.0
    for key in {(r.stage, r.table) for r in results}:
        seated = [r for r in results if (r.stage, r.table) == key]
        points = lower_wins({r.entrant or f"bot{r.seat}": r.total for r in seated})
        for who, p in points.items():
            if who in expected:
                expected[who] += p
            else:
                bots += p
    assert {s.entrant: s.score for s in rows} == expected
    n_tables = len({(r.stage, r.table) for r in results})
    size = max(r.seat for r in results) + 1
    assert sum(s.score for s in rows) + bots == n_tables * size * (size - 1) / 2
    assert {s.entrant: s.played for s in rows} == dict.fromkeys(
        PEOPLE, max(r.stage for r in results)
    )
    check_places(rows)
    shuffled = list(results)
    random.Random(len(results)).shuffle(shuffled)
    assert swiss_standings(PEOPLE, shuffled) == rows


def test_an_entrant_without_results_stands_last_with_nothing() -> None:
    """A late entrant (no tables yet) is listed, with no score and no tables played;
    a bot's seat is scored against but stands nowhere."""
    results = [Result(1, 1, 0, "ann", 3), Result(1, 1, 1, None, 5)]
    rows = swiss_standings(["ann", "bob"], results)
    assert [(s.place, s.entrant, s.score, s.played) for s in rows] == [
        (1, "ann", 1.0, 1),
        (2, "bob", 0.0, 0),
    ]


def round_of_four(stage: int, totals: dict[str, int]) -> list[Result]:
    return [Result(stage, 1, seat, who, total) for seat, (who, total) in enumerate(totals.items())]


# Three rounds at one table of four, where bob's and cat's points differences are
# (-1.7, -1.7, +3.0) and (-1.7, +1.0, +0.3): both add up to -0.4 and both score 4.
LEVEL = [
    *round_of_four(1, {"ann": 3, "cat": 4, "dan": 0, "bob": 4}),
    *round_of_four(2, {"cat": 1, "ann": 0, "bob": 3, "dan": 3}),
    *round_of_four(3, {"bob": 1, "cat": 3, "dan": 6, "ann": 3}),
]


def test_a_tie_on_score_and_tiebreak_shares_a_place() -> None:
    """bob and cat are level (score 4, tiebreak -0.4, by hand above), so they share
    second place.  The tiebreaks are sums of tenths in floating point, and the places
    are decided on the unrounded sums (-0.3999999999999999 and -0.39999999999999997)."""
    rows = {s.entrant: s for s in swiss_standings(["ann", "bob", "cat", "dan"], LEVEL)}
    assert (rows["bob"].score, rows["bob"].tiebreak) == (4.0, -0.4)
    assert (rows["cat"].score, rows["cat"].tiebreak) == (4.0, -0.4)
    assert rows["bob"].place == rows["cat"].place == 2


def test_the_order_of_the_results_does_not_change_the_standings() -> None:
    """The module's promise: results read in another order give the same table.  Here
    the rounds read backwards sum each tiebreak in another order: ann's 1.0 + 1.7 - 2.7
    and cat's -0.3 - 1.0 + 1.3 are both 0 on paper (and both score 4.5), but not in
    floating point, so their places change with the order."""
    people = ["ann", "bob", "cat", "dan"]
    backwards = [
        *round_of_four(1, {"dan": 5, "ann": 2, "cat": 3, "bob": 1}),
        *round_of_four(2, {"dan": 2, "cat": 4, "bob": 5, "ann": 2}),
        *round_of_four(3, {"dan": 0, "ann": 3, "cat": 0, "bob": 1}),
    ]
    assert swiss_standings(people, backwards[::-1]) == swiss_standings(people, backwards)


def board(stage: int, tables: list[list[tuple[str | None, int]]]) -> list[Result]:
    """One board's results: ``tables[t][seat]`` is (holder, total)."""
    return [
        Result(stage, t + 1, seat, who, total)
        for t, seats in enumerate(tables)
        for seat, (who, total) in enumerate(seats)
    ]


BOARDS = [
    *board(1, [[("ann", 2), ("bob", 7)], [("cat", 4), ("dan", 4)], [("eve", 9), (None, 1)]]),
    *board(2, [[("bob", 3), ("ann", 6)], [("dan", 0), ("cat", 8)], [("eve", 5), (None, 5)]]),
]


def test_duplicate_matchpoints_compare_each_seat_across_tables() -> None:
    """Each board's seat is held once per table: three holders give out 3 matchpoints.
    Board 1 seat 0 (ann 2, cat 4, eve 9) gives ann 2, cat 1, eve 0; seat 1 (bob 7,
    dan 4, bot 1) gives dan 1, bob 0.  Only board 1 is complete."""
    rows = duplicate_standings(PEOPLE[:5], BOARDS, {1})
    score = {s.entrant: s.score for s in rows}
    assert score == {"ann": 2.0, "cat": 1.0, "eve": 0.0, "dan": 1.0, "bob": 0.0}
    assert sum(score.values()) + 2.0 == 2 * 3  # the bot took 2 of seat 1's 3
    assert {s.entrant: s.played for s in rows} == dict.fromkeys(PEOPLE[:5], 1)
    check_places(rows)


def test_duplicate_ignores_boards_not_complete() -> None:
    """Results on a board some table has not played yet count for nobody, whatever
    they are: the standings equal those without them."""
    without = duplicate_standings(PEOPLE[:5], [r for r in BOARDS if r.stage == 1], {1})
    assert duplicate_standings(PEOPLE[:5], BOARDS, {1}) == without
    nothing = duplicate_standings(PEOPLE[:5], BOARDS, set())
    assert all(s.score == 0 and s.played == 0 and s.place == 1 for s in nothing)


def test_duplicate_difference_scoring_swaps_score_and_tiebreak() -> None:
    """With ``difference`` the points difference is the score and the matchpoints the
    tiebreak; both boards complete, each holder's totals summed over the two."""
    by_mp = {s.entrant: s for s in duplicate_standings(PEOPLE[:5], BOARDS, {1, 2})}
    by_diff = {s.entrant: s for s in duplicate_standings(PEOPLE[:5], BOARDS, {1, 2}, "difference")}
    for who in by_mp:
        assert (by_diff[who].score, by_diff[who].tiebreak) == (
            by_mp[who].tiebreak,
            by_mp[who].score,
        )
    # ann: board 1 seat 0 vs (4, 9): 6.5 - 2 = 4.5; board 2 seat 1 vs (8, 5): 6.5 - 6 = 0.5
    assert by_diff["ann"].score == 5.0
    assert by_mp["ann"].score == 2.0 + 1.0
    check_places(list(by_diff.values()))


def test_each_boards_performance_is_published_against_its_field_only_once_complete() -> None:
    """Board 1 (complete): each holder's matchpoints and points difference against the
    others who held the same seat's cards, counted pair by pair here; board 2 (not
    complete) publishes nothing; the per-board matchpoints sum to the standings'."""
    scores = board_scores(BOARDS, {1})
    assert {s.board for s in scores} == {1}
    for seat in (0, 1):
        held = {s.entrant: s for s in scores if s.seat == seat}
        totals = {who: s.total for who, s in held.items()}
        assert {who: s.matchpoints for who, s in held.items()} == lower_wins(totals)
        for who, s in held.items():
            others = [t for w, t in totals.items() if w != who]
            assert s.difference == round(sum(others) / len(others) - s.total, 1)
    assert [(s.seat, s.table) for s in scores] == sorted((s.seat, s.table) for s in scores)
    summed: dict[str | None, float] = {}
    for s in board_scores(BOARDS, {1, 2}):
        summed[s.entrant] = summed.get(s.entrant, 0) + s.matchpoints
    standings = duplicate_standings(PEOPLE[:5], BOARDS, {1, 2})
    assert {r.entrant: r.score for r in standings} == {k: v for k, v in summed.items() if k}
