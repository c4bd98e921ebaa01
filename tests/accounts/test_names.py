"""The rules of a username and a password (app/accounts/names.py)."""

from __future__ import annotations

import pytest

from app.accounts.names import (
    BAD_USERNAME,
    WEAK_PASSWORD,
    BadAccountInput,
    check_password,
    check_username,
    fold,
    name_from,
)


@pytest.mark.parametrize("name", ["ann", "Ann_1", "a.b-c", "x" * 24, "123"])
def test_names_of_letters_digits_and_three_marks_are_taken(name: str) -> None:
    assert check_username(name) == name


@pytest.mark.parametrize(
    "name", ["", "ab", "x" * 25, "a b", "ann!", "Ånn", "аnn", "ann\n", "bot 1", "<b>"]
)
def test_other_names_are_refused_as_bad_username(name: str) -> None:
    with pytest.raises(BadAccountInput) as refused:
        check_username(name)
    assert refused.value.code == BAD_USERNAME


def test_names_are_unique_without_regard_to_case() -> None:
    assert fold("Ann_1") == fold("ANN_1") == "ann_1"


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short", "at least 8"),
        ("password123", "first ones guessed"),
        ("QWERTYUIOP", "first ones guessed"),
        ("my-ann_1-pw", "must not contain the username"),
        ("aaaaaaaaaaaa", "4 different"),
        ("abababab", "4 different"),
        ("x" * 257, "at most"),
    ],
)
def test_weak_passwords_are_refused_saying_why(password: str, why: str) -> None:
    with pytest.raises(BadAccountInput) as refused:
        check_password(password, "Ann_1")
    assert refused.value.code == WEAK_PASSWORD
    assert why in refused.value.message


@pytest.mark.parametrize(
    "password", ["correct horse", "Tr0ub4dor&3", "ännu ett lösen", "😀😁😂🤣🙂🙃😉😊"]
)
def test_long_enough_passwords_of_any_characters_are_taken(password: str) -> None:
    assert check_password(password, "Ann_1") == password


@pytest.mark.parametrize(
    ("preferred", "made"),
    [
        ("ann.smith", "ann.smith"),
        ("ann@example.org", "ann"),
        ("Åsa Öberg", "saberg"),
        ("a", "player"),
        (None, "player"),
        ("x" * 40, "x" * 24),
    ],
)
def test_a_providers_name_becomes_a_valid_username(preferred: str | None, made: str) -> None:
    assert name_from(preferred, "player") == made
    assert check_username(made) == made
