"""A profile's figures from plain rows (app/ratings/profiles.py): pure, no database.
The same figures from a real server's finished deals: tests/server/test_ratings.py."""

from __future__ import annotations

from typing import Any

from app.ratings.model import Skill
from app.ratings.profiles import (
    CoachedSeat,
    PlayedDeal,
    PlayedMatch,
    ProfileRows,
    SeatName,
    profile,
)


def _score(total: int, sweeps: int = 0, doubles: int = 0, conceded: int = 0) -> Any:
    return {
        "seat": 0,
        "card_points": total,
        "sweeps": sweeps,
        "double_sweeps": doubles,
        "sweeps_conceded": conceded,
        "double_sweeps_conceded": 0,
        "bordstabbe": 0,
        "sweeps_made_points": 0,
        "sweeps_conceded_points": 0,
        "sweep_transfer": 0,
        "total": total,
    }


def _rows() -> ProfileRows:
    deals = [
        PlayedDeal(2, 0, [_score(10, sweeps=1), _score(32, conceded=1)]),  # 10 - 21 = -11
        PlayedDeal(2, 1, [_score(30), _score(12, doubles=1)]),  # 12 - 21 = -9
        PlayedDeal(3, 2, [_score(10), _score(10), _score(22, conceded=2)]),  # 22 - 14 = 8
    ]
    matches = [
        PlayedMatch("b" * 32, 1, 3, 2, [10, 10, 22], [0, 1], 3_000),
        PlayedMatch(
            "a" * 32,
            2,
            2,
            1,
            [30, 12],
            [1],
            2_000,
            seats=[SeatName(0, None, False, None, deleted=True), SeatName(1, "Ann", False, "Ann")],
            rating=(Skill(25.0, 8.0), Skill(27.0, 7.5)),
        ),
        PlayedMatch("a" * 32, 1, 2, 0, [10, 32], [0], 1_000, left=True),
    ]
    return ProfileRows("Ann", 1, matches, deals, [])


def test_games_per_player_count_with_wins_and_the_mean_against_the_even_share() -> None:
    p = profile(_rows())
    assert p["games"] == [
        {"players": 2, "matches": 2, "wins": 2, "deals": 2, "mean_vs_share": -10.0},
        {"players": 3, "matches": 1, "wins": 0, "deals": 1, "mean_vs_share": 8.0},
    ]
    assert p["mean_vs_share"] == round((-11 - 9 + 8) / 3, 2)
    assert (p["matches"], p["deals"]) == (3, 3)


def test_sweeps_made_and_conceded_count_doubles_apart() -> None:
    assert profile(_rows())["sweeps"] == {
        "made": 1,
        "doubles_made": 1,
        "conceded": 2,
        "doubles_conceded": 0,
    }


def test_recent_matches_say_place_rating_who_left_and_where_to_replay() -> None:
    recent = profile(_rows(), recent=2)["recent"]
    assert [(m["room_id"][0], m["match_no"]) for m in recent] == [("b", 1), ("a", 2)]
    assert recent[0]["place"] == 3 and not recent[0]["won"] and recent[0]["rating"] is None
    assert recent[1]["place"] == 1 and recent[1]["won"]
    assert recent[1]["rating"] == {
        "before": 1.0,
        "after": 4.5,
        "mu_before": 25.0,
        "mu_after": 27.0,
        "change": 2.0,  # what the shown rating (mu) moved (issue 47)
        "provisional": True,
    }
    assert recent[1]["seats"][0] == {
        "seat": 0,
        "name": None,
        "bot": False,
        "username": None,
        "deleted": True,
    }
    assert recent[1]["replay"] == f"/r/{'a' * 32}/replay/2/1"
    assert profile(_rows())["recent"][2]["left"]


def test_a_profile_without_games_has_no_means_and_no_coach() -> None:
    p = profile(ProfileRows("Bo", 1, [], [], []))
    assert p["games"] == [] and p["mean_vs_share"] is None and p["coach"] is None
    assert p["recent"] == [] and p["ratings"] == {}


def test_the_coachs_word_sums_the_analysed_deals_of_the_accounts_seats() -> None:
    coached = [CoachedSeat(12, 3.5, 2, 1, 0), CoachedSeat(8, 6.5, 0, 0, 1)]
    coach = profile(ProfileRows("Bo", 1, [], [], [], coached))["coach"]
    assert coach == {
        "deals": 2,
        "plays": 20,
        "accuracy": round(16 / 20, 4),
        "mean_loss": 0.5,
        "inaccuracies": 2,
        "mistakes": 1,
        "blunders": 1,
    }
    assert profile(ProfileRows("Bo", 1, [], [], [], [CoachedSeat(0, 0, 0, 0, 0)]))["coach"] is None
