"""Which plays of a deal of the day rank (issue 46, app/daily/ranking.py ``ranked_keys``):
the first DAILY_RANKED_PER_ADDRESS started from one address, whatever order they were
claimed in; a play whose address is not known; all with no limit."""

from __future__ import annotations

from app.daily.ranking import Start, ranked_keys

PLAYS = [
    Start("k3", "home", 30),
    Start("k1", "home", 10),
    Start("k2", "home", 10),  # same moment as k1: the key breaks the tie
    Start("k4", "cafe", 20),
    Start("k5", None, 40),
]


def test_the_first_plays_from_an_address_rank() -> None:
    assert ranked_keys(PLAYS, 1) == {"k1", "k4", "k5"}
    assert ranked_keys(PLAYS, 2) == {"k1", "k2", "k4", "k5"}
    assert ranked_keys(list(reversed(PLAYS)), 1) == {"k1", "k4", "k5"}, "any order"


def test_no_limit_ranks_every_play() -> None:
    assert ranked_keys(PLAYS, 0) == {"k1", "k2", "k3", "k4", "k5"}
    assert ranked_keys([], 1) == set()
