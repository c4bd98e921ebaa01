"""app/names.py: the names that would pass a person off as a bot, in every language the
client speaks, compared without case or spaces."""

from __future__ import annotations

import json

import pytest

from app.names import is_reserved_name, name_key
from tests.conftest import ROOT

CATALOGUES = sorted((ROOT / "static" / "i18n").glob("*.json"))


def test_there_are_six_catalogues() -> None:
    assert len(CATALOGUES) == 6


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_bot_name_the_client_shows_is_reserved(path) -> None:  # type: ignore[no-untyped-def]
    words = json.loads(path.read_text(encoding="utf-8"))
    for n in (1, 2, 5, 12):
        shown = words["bot_n"].replace("{n}", str(n))
        assert is_reserved_name(shown), shown
        assert is_reserved_name(shown.upper()) and is_reserved_name(shown.replace(" ", ""))
    assert is_reserved_name(words["bot"])


@pytest.mark.parametrize(
    "name", ["Bot 1", "bot1", "BOT  3", " Bot 4 ", "Ｂｏｔ　１", "Dator 2", "robot", "Maskin 10"]
)
def test_bot_names_are_reserved_whatever_their_case_and_spaces(name: str) -> None:
    assert is_reserved_name(name)


@pytest.mark.parametrize("name", ["Ann", "Bobby", "Botte", "Bot 1a", "Robotnik", "Datorn", "B0t"])
def test_other_names_are_free(name: str) -> None:
    assert not is_reserved_name(name)


def test_names_compare_without_case_or_spaces() -> None:
    assert name_key("Anna Karin") == name_key("anna  karin") == name_key("ANNAKARIN")
