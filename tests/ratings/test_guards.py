"""The guards of the ratings (issue 46, app/ratings/guards.py): which seats a seat's
rating ignores (accounts that shared an address or a browser; leavers, for those who
stayed), and the update that leaves them out.  Pure, no database."""

from __future__ import annotations

import pytest

from app.ratings.guards import LEFT, SEEN_EVERY_MS, SHARED, Remembered, SeatWho, ignored
from app.ratings.model import BOT_ANCHORS, NEW, Skill, rate
from app.ratings.ratings import RatedMatch, RatedSeat, seat_changes

PAIR = frozenset({"ann", "annex"})


def _match(*seats: tuple[str | None, int, bool]) -> RatedMatch:
    """(account or None for a greedy bot, total, left) per seat."""
    return RatedMatch(
        "r" * 32,
        1,
        len(seats),
        1_000,
        tuple(
            RatedSeat(i, who, None if who else "greedy", left, total)
            for i, (who, total, left) in enumerate(seats)
        ),
    )


def test_linked_accounts_ignore_each_other_and_stayers_ignore_leavers() -> None:
    seats = [
        SeatWho(0, "ann", False),
        SeatWho(1, "annex", False),
        SeatWho(2, "cy", True),
        SeatWho(3, None, False),
    ]
    assert ignored(seats, {PAIR}) == {
        0: {1: SHARED, 2: LEFT},
        1: {0: SHARED, 2: LEFT},
    }, "the leaver ignores nobody; a bot is never rated"
    assert ignored(seats, set()) == {0: {2: LEFT}, 1: {2: LEFT}}


def test_nothing_ignored_is_the_whole_matchs_update() -> None:
    match = _match(("ann", 5, False), ("bo", 9, False), (None, 7, False))
    changes = seat_changes(match, {"bo": Skill(27.0, 6.0)})
    whole = rate([NEW, Skill(27.0, 6.0), BOT_ANCHORS["greedy"]], [0, 2, 1])
    assert [c.after for c in changes[:2]] == whole[:2]
    assert changes[2].after == BOT_ANCHORS["greedy"]
    assert all(c.apart == () for c in changes)


def test_two_linked_accounts_move_nothing_in_each_other() -> None:
    match = _match(("ann", 3, False), ("annex", 18, False))
    won, lost = seat_changes(match, {}, {PAIR})
    assert won.after == won.before == NEW and lost.after == lost.before == NEW
    assert won.apart == ((1, SHARED),) and lost.apart == ((0, SHARED),)
    assert (won.rank, lost.rank) == (0, 1), "the standing is the match's all the same"


def test_a_linked_account_is_rated_against_the_others_alone() -> None:
    match = _match(("ann", 3, False), ("annex", 30, False), ("cy", 10, False))
    ann, annex, cy = seat_changes(match, {}, {PAIR})
    assert ann.after == rate([NEW, NEW], [0, 1])[0], "Ann against Cy only"
    assert annex.after == rate([NEW, NEW], [1, 0])[0], "her puppet against Cy only"
    assert cy.after == rate([NEW, NEW, NEW], [0, 2, 1])[2], "Cy against both, as ever"
    assert cy.apart == ()


def test_a_leaver_loses_and_nobody_gains_from_it() -> None:
    match = _match(("ann", 12, False), ("bo", 2, True), (None, 8, False))
    ann, bo, bot = seat_changes(match, {}, set())
    assert ann.apart == ((1, LEFT),) and bo.apart == ()
    assert ann.after == rate([NEW, BOT_ANCHORS["greedy"]], [1, 0])[0], "Ann against the bot"
    assert bo.after.mu < NEW.mu and bo.rank == 2, "last, whatever his points"
    two = seat_changes(_match(("ann", 12, False), ("bo", 2, True)), {}, set())
    assert two[0].after == NEW and two[1].after.mu < NEW.mu


@pytest.mark.parametrize("gap", [0, SEEN_EVERY_MS - 1])
def test_a_sighting_is_written_once_an_hour(gap: int) -> None:
    seen = Remembered()
    assert seen.due("ann", "address", "h", 1_000)
    assert not seen.due("ann", "address", "h", 1_000 + gap)
    assert seen.due("ann", "key", "h", 1_000) and seen.due("bo", "address", "h", 1_000)
    assert seen.due("ann", "address", "h", 1_000 + SEEN_EVERY_MS)
    seen.forget("ann", "address", "h")
    assert seen.due("ann", "address", "h", 1_000 + SEEN_EVERY_MS + 1)
