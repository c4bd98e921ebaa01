"""Who may sit in a rated room (app/ratings/rated_rooms.py), at the package: a signed-in
person, once (issue 48: one account let into two seats was caught only by the slow
server tests), and never in partnership (V1)."""

from __future__ import annotations

import pytest

from app.ratings.rated_rooms import (
    ACCOUNT_REQUIRED,
    ALREADY_SEATED,
    TEAMS,
    RatedRefusal,
    check_create,
    check_join,
)


def refusal(call: object, *args: object) -> tuple[int, str]:
    with pytest.raises(RatedRefusal) as refused:
        call(*args)  # type: ignore[operator]
    return refused.value.status, refused.value.code


def test_one_account_takes_one_seat_of_a_rated_room() -> None:
    check_join("bo", {"ann"})
    check_join("bo", set())
    assert refusal(check_join, "ann", {"ann"}) == (409, ALREADY_SEATED)
    assert refusal(check_join, "ann", {"cy", "ann", "bo"}) == (409, ALREADY_SEATED)


def test_a_guest_neither_joins_nor_makes_a_rated_room() -> None:
    assert refusal(check_join, None, set()) == (403, ACCOUNT_REQUIRED)
    assert refusal(check_create, False, False) == (403, ACCOUNT_REQUIRED)


def test_partnership_is_not_rated() -> None:
    check_create(True, False)
    assert refusal(check_create, True, True) == (422, TEAMS)
