"""The clubs' pure rules (app/clubs/rules.py): the permissions table written out here
by hand, and what a name and a description may be."""

from __future__ import annotations

import pytest

from app.clubs.errors import ClubCode, ClubRefused
from app.clubs.rules import (
    Act,
    Facts,
    Role,
    check_description,
    check_leave,
    check_may,
    check_name,
    may,
)

OWN, ORG, MEM = Role.OWNER, Role.ORGANISER, Role.MEMBER

EXPECTED = {
    # (actor, act, target): allowed
    (OWN, Act.INVITE, None): True,
    (ORG, Act.INVITE, None): True,
    (MEM, Act.INVITE, None): False,
    (None, Act.INVITE, None): False,
    (OWN, Act.ANSWER, None): True,
    (ORG, Act.ANSWER, None): True,
    (MEM, Act.ANSWER, None): False,
    (None, Act.ANSWER, None): False,
    (OWN, Act.REMOVE, MEM): True,
    (OWN, Act.REMOVE, ORG): True,
    (OWN, Act.REMOVE, OWN): False,
    (ORG, Act.REMOVE, MEM): True,
    (ORG, Act.REMOVE, ORG): False,
    (ORG, Act.REMOVE, OWN): False,
    (MEM, Act.REMOVE, MEM): False,
    (MEM, Act.REMOVE, ORG): False,
    (None, Act.REMOVE, MEM): False,
    (OWN, Act.REMOVE, None): False,
    (OWN, Act.SET_ROLE, None): True,
    (ORG, Act.SET_ROLE, None): False,
    (MEM, Act.SET_ROLE, None): False,
    (OWN, Act.CLOSE, None): True,
    (ORG, Act.CLOSE, None): False,
    (MEM, Act.CLOSE, None): False,
    (None, Act.CLOSE, None): False,
    (OWN, Act.LEAVE, None): False,
    (ORG, Act.LEAVE, None): True,
    (MEM, Act.LEAVE, None): True,
    (None, Act.LEAVE, None): False,
}


def test_every_act_is_in_the_table_written_here() -> None:
    assert {act for _, act, _ in EXPECTED} == set(Act)


@pytest.mark.parametrize(("actor", "act", "target"), list(EXPECTED))
def test_who_may_do_what(actor: Role | None, act: Act, target: Role | None) -> None:
    assert may(actor, act, target) is EXPECTED[(actor, act, target)]


def code_of(fn: object, *args: object) -> str:
    with pytest.raises(ClubRefused) as caught:
        fn(*args)  # type: ignore[operator]
    return caught.value.code


def test_a_closed_club_refuses_everything_even_its_owner() -> None:
    for act in (Act.INVITE, Act.ANSWER, Act.SET_ROLE, Act.CLOSE):
        assert code_of(check_may, Facts(True, OWN), act) == ClubCode.CLUB_CLOSED
    assert code_of(check_leave, Facts(True, MEM)) == ClubCode.CLUB_CLOSED


def test_refusals_name_their_code() -> None:
    assert code_of(check_may, Facts(False, MEM), Act.INVITE) == ClubCode.CLUB_FORBIDDEN
    assert code_of(check_may, Facts(False, ORG, ORG), Act.REMOVE) == ClubCode.CLUB_FORBIDDEN
    assert code_of(check_leave, Facts(False, OWN)) == ClubCode.OWNER_MUST_HAND_OVER
    assert code_of(check_leave, Facts(False, None)) == ClubCode.NOT_CLUB_MEMBER
    check_may(Facts(False, ORG, MEM), Act.REMOVE)  # allowed: nothing raised
    check_leave(Facts(False, ORG))


def test_a_name_is_cleaned_and_its_skeleton_folds_look_alikes() -> None:
    assert check_name("  Kasino   Klubben ") == ("Kasino Klubben", check_name("kasinoklubben")[1])
    assert check_name("Club")[1] == check_name("\u0421lub")[1]  # Cyrillic Es
    assert check_name("Cl0b")[1] == check_name("clob")[1]
    assert check_name("Ｃｌｕｂ")[1] == check_name("club")[1]  # full-width


@pytest.mark.parametrize(
    "name",
    [
        "ab",
        "x" * 41,
        "   ",
        "<b>Club</b>",
        "Club &amp; co",
        "Club\x00zero",
        "Club\nline",
        "Club\u202eevil",
        "---",
        "a" + "\u200b" * 2,
    ],
)
def test_bad_names_are_refused(name: str) -> None:
    assert code_of(check_name, name) == ClubCode.BAD_CLUB_NAME


def test_descriptions() -> None:
    assert check_description("  We play on Tuesdays.\nAll welcome: 2 < 3. ") == (
        "We play on Tuesdays.\nAll welcome: 2 < 3."
    )
    assert check_description("") == ""
    for bad in ("x" * 501, "<script>alert(1)</script>", "bell\x07", "a\u2066b", "&lt;"):
        assert code_of(check_description, bad) == ClubCode.BAD_CLUB_DESCRIPTION
