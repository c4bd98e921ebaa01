"""Who plays whom (app/pairing/matching.py): oldest first, close ratings, a table of
people before one with bots, bots only for those who accept them and after their time."""

from __future__ import annotations

from app.pairing.matching import Waiting, Widening, accept_each_other, form_table

NOW = 1_000_000


def person(name: str, waited_s: float = 0, rating: float | None = None, bots: int | None = None):  # type: ignore[no-untyped-def]
    return Waiting(name, NOW - int(waited_s * 1000), rating, bots)


def names(table) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.ticket for p in table.people]


def test_nobody_waiting_or_too_few_forms_no_table() -> None:
    assert form_table([], 2, NOW) is None
    assert form_table([person("a", 5)], 3, NOW) is None
    assert form_table([person("a", 5), person("b")], 3, NOW) is None


def test_the_longest_waiting_are_seated_first_in_seat_order() -> None:
    queue = [person("new"), person("old", 30), person("mid", 10)]
    table = form_table(queue, 2, NOW)
    assert table is not None and names(table) == ["old", "mid"] and table.bots == 0


def test_unrated_people_play_anyone() -> None:
    table = form_table([person("a", 1, 1500), person("b")], 2, NOW)
    assert table is not None and names(table) == ["a", "b"]


def test_far_apart_ratings_wait_until_the_window_has_widened() -> None:
    wide = Widening(base=100, per_second=10, most=1000)
    strong, weak = person("strong", 0, 1900), person("weak", 0, 1500)
    assert form_table([strong, weak], 2, NOW, wide) is None
    # 400 points apart: both must accept, so both must have waited 30 s.
    later = NOW + 30_000
    assert form_table([strong, weak], 2, later - 1000, wide) is None
    table = form_table([strong, weak], 2, later, wide)
    assert table is not None and sorted(names(table)) == ["strong", "weak"]


def test_a_closer_rating_is_preferred_to_a_longer_wait_out_of_reach() -> None:
    queue = [person("anchor", 5, 25.0), person("far", 4, 35.0), person("near", 0, 26.5)]
    table = form_table(queue, 2, NOW)
    assert table is not None and names(table) == ["anchor", "near"]


def test_both_must_accept_each_other() -> None:
    wide = Widening(base=100, per_second=10, most=1000)
    patient, newcomer = person("patient", 60, 1500), person("new", 0, 1800)
    assert wide.window(patient, NOW) == 700 and wide.window(newcomer, NOW) == 100
    assert not accept_each_other(patient, newcomer, NOW, wide)


def test_the_default_window_suits_the_rating_model() -> None:
    """OpenSkill's mu (app/ratings): 25 for a new player; greedy and strong bots 25, 31."""
    new, strong = person("new", 0, 25.0), person("strong", 0, 31.0)
    assert form_table([new, strong], 2, NOW) is None
    assert form_table([new, strong], 2, NOW + 15_000) is not None  # 3 + 0.2 * 15 = 6


def test_the_window_stops_widening() -> None:
    wide = Widening(base=100, per_second=10, most=300)
    assert wide.window(person("a", 3600), NOW) == 300


def test_bots_fill_only_after_the_chosen_time() -> None:
    alone = person("a", 29, bots=30)
    assert form_table([alone], 4, NOW) is None
    table = form_table([alone], 4, NOW + 1000)
    assert table is not None and names(table) == ["a"] and table.bots == 3


def test_never_means_no_bots_however_long() -> None:
    assert form_table([person("a", 3600, bots=None)], 2, NOW) is None


def test_a_table_with_bots_seats_only_those_who_accept_them() -> None:
    queue = [person("never", 100), person("ready", 50, bots=10), person("later", 5, bots=60)]
    table = form_table(queue, 4, NOW)
    assert table is not None and names(table) == ["ready"] and table.bots == 3


def test_people_who_accept_bots_share_the_table_before_bots_do() -> None:
    queue = [person("a", 40, bots=30), person("b", 35, bots=30)]
    table = form_table(queue, 3, NOW)
    assert table is not None and names(table) == ["a", "b"] and table.bots == 1


def test_a_full_table_of_people_comes_before_bots() -> None:
    queue = [person("a", 90, bots=0), person("b", 0)]
    table = form_table(queue, 2, NOW)
    assert table is not None and names(table) == ["a", "b"] and table.bots == 0
