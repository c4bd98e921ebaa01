"""Ranks and percentiles of a day's results (app/daily/ranking.py): fewer points rank
higher, ties share a rank and a percentile, percentile is the share of the others one
did better than, a tie counting half."""

from __future__ import annotations

from app.daily.ranking import Placed, place, placings


def test_five_players_with_a_tie() -> None:
    points = [12, 3, 20, 12, -5]
    assert placings(points) == [
        Placed(rank=3, percentile=37.5),  # 12: of the four others 20 did worse, 12 tied
        Placed(rank=2, percentile=75.0),  # 3: 12, 20, 12 did worse
        Placed(rank=5, percentile=0.0),  # 20: nobody did worse
        Placed(rank=3, percentile=37.5),  # the other 12: the same
        Placed(rank=1, percentile=100.0),  # -5 beat everyone
    ]


def test_everyone_tied_shares_the_first_rank_and_the_middle() -> None:
    assert placings([7, 7, 7]) == [Placed(1, 50.0)] * 3


def test_a_player_alone_is_first_at_100() -> None:
    assert place(30, [30]) == Placed(rank=1, percentile=100.0)


def test_percentile_is_rounded_to_one_decimal() -> None:
    assert place(1, [1, 2, 3, 0]).percentile == 66.7  # two of the three others did worse
    assert place(1, [1, 2, 3, 0]).rank == 2
