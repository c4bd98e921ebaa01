"""The rating model (app/ratings/model.py) and a rated match's changes
(app/ratings/ratings.py ``seat_changes``, ``rated_match``): pure, no database."""

from __future__ import annotations

import pytest

from app.ratings.model import BOT_ANCHORS, NEW, Finisher, Skill, rate, standing
from app.ratings.ratings import RatedMatch, RatedSeat, rated_match, seat_changes
from app.rooms.domain.match_end import FinishedMatch, FinishedSeat


def test_the_lowest_total_stands_first_and_equal_totals_share_a_rank() -> None:
    """R6.4: the lowest cumulative total wins; ties share."""
    assert standing([Finisher(30), Finisher(12), Finisher(30), Finisher(-5)]) == [2, 1, 2, 0]


def test_whoever_left_is_last_whatever_their_points() -> None:
    finishers = [Finisher(40), Finisher(-20, left=True), Finisher(25), Finisher(0, left=True)]
    assert standing(finishers) == [1, 2, 0, 2]


def test_the_winner_of_two_new_players_rises_and_the_loser_falls() -> None:
    winner, loser = rate([NEW, NEW], [0, 1])
    assert winner.mu > NEW.mu > loser.mu
    assert winner.ordinal > loser.ordinal


def test_a_tie_between_equals_moves_nobody_apart() -> None:
    a, b = rate([NEW, NEW], [0, 0])
    assert a.mu == pytest.approx(b.mu)


def test_a_match_needs_two_to_six_seats() -> None:
    with pytest.raises(ValueError):
        rate([NEW], [0])
    with pytest.raises(ValueError):
        rate([NEW] * 7, list(range(7)))


def test_the_ordinal_is_three_sigmas_below_the_estimate() -> None:
    assert Skill(30.0, 2.0).ordinal == 24.0


def _match(*seats: RatedSeat) -> RatedMatch:
    return RatedMatch("r" * 32, 1, len(seats), 0, seats)


def test_a_bot_keeps_its_anchor_and_the_person_moves() -> None:
    person = RatedSeat(0, "acct", None, False, 10)
    bot = RatedSeat(1, None, "strong", False, 32)
    changes = seat_changes(_match(person, bot), {})
    assert changes[0].before == NEW and changes[0].after.mu > NEW.mu
    assert changes[1].before == changes[1].after == BOT_ANCHORS["strong"]
    assert [c.rank for c in changes] == [0, 1]


def test_a_stored_rating_is_the_starting_point() -> None:
    seats = (RatedSeat(0, "a", None, False, 30), RatedSeat(1, "b", None, False, 12))
    known = Skill(35.0, 3.0)
    changes = seat_changes(_match(*seats), {"a": known})
    assert changes[0].before == known and changes[0].after.mu < known.mu
    assert changes[1].before == NEW and changes[1].after.mu > NEW.mu


def _finished(rated: bool = True, **seat_left: bool) -> FinishedMatch:
    seats = (
        FinishedSeat(0, "Ann", False, seat_left.get("ann", False), 12),
        FinishedSeat(1, "Bot 1", True, False, 30),
        FinishedSeat(2, "Bo", False, seat_left.get("bo", False), 0),
    )
    return FinishedMatch("r" * 32, 2, 3, rated, "random", seats, (2,), 1000)


def test_a_finished_rated_match_names_accounts_bot_levels_and_who_left() -> None:
    match = rated_match(_finished(bo=True), {0: "ann-id", 2: "bo-id"})
    assert match is not None
    assert [(s.account_id, s.bot_level, s.left) for s in match.seats] == [
        ("ann-id", None, False),
        (None, "random", False),
        ("bo-id", None, True),
    ]
    assert [c.rank for c in seat_changes(match, {})] == [0, 1, 2]


def test_an_unrated_room_or_one_account_in_two_seats_rates_nothing() -> None:
    assert rated_match(_finished(rated=False), {0: "a", 2: "b"}) is None
    assert rated_match(_finished(), {0: "same", 2: "same"}) is None
