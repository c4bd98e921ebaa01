"""app/names.py: the names that would pass a person off as a bot, in every language the
client speaks, and the skeleton any two names are compared by (issue 46): NFKC, format
characters removed, no white space, case folded, look-alike letters folded by Unicode's
confusables data (UTS #39)."""

from __future__ import annotations

import json
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.bots.levels import LEVELS as BOT_LEVELS
from app.names import (
    LEVEL_LABELS,
    LEVELS,
    bidi_control,
    is_reserved_name,
    name_key,
    plain_key,
    same_name,
)
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


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_bot_level_the_client_shows_is_reserved(path) -> None:  # type: ignore[no-untyped-def]
    words = json.loads(path.read_text(encoding="utf-8"))
    for level in BOT_LEVELS:
        label = words[f"bot_{level}"]
        assert label in LEVEL_LABELS, label
        assert is_reserved_name(label) and is_reserved_name(label.upper()), label
        first = label.split()[0]
        assert is_reserved_name(f"{first} {words['bot']}"), first  # "Strong bot"
        assert is_reserved_name(f"{words['bot_n'].replace('{n}', '2')} ({level})")


def test_the_levels_are_the_bots_levels() -> None:
    assert LEVELS == BOT_LEVELS


@pytest.mark.parametrize(
    "name", ["Bot 1", "bot1", "BOT  3", " Bot 4 ", "Ｂｏｔ　１", "Dator 2", "robot", "Maskin 10"]
)
def test_bot_names_are_reserved_whatever_their_case_and_spaces(name: str) -> None:
    assert is_reserved_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "B\u200bot 1",  # a zero-width space
        "Bot 1\u202e",  # a right-to-left override
        "B\u043et 1",  # Cyrillic o
        "\u0392ot 1",  # Greek capital beta
        "Bo\u00adt 1",  # a soft hyphen
        "B\u2060ot\ufeff 1",  # a word joiner and a zero-width no-break space
        "Bot l",  # "1" and "l" are one shape (UTS #39)
        "B0t",  # and so are "0" and "o"
        "Strong bot",  # a bot's level
        "bot strong",
        "Stark dator 2",
        "Bot 2 (greedy)",
        "Strong (searches)",  # a level's label in the lobby
        "Fort (recherche)",
        "Bot-1",
        "(Bot 1)",
        "B\u0336o\u0336t\u0336 1",  # struck through
    ],
)
def test_look_alikes_of_bot_names_are_reserved(name: str) -> None:
    assert is_reserved_name(name)


@pytest.mark.parametrize(
    "name",
    ["Ann", "Bobby", "Botte", "Bot 1a", "Robotnik", "Datorn", "Strong", "Greedy Gus", "Fort Knox"],
)
def test_other_names_are_free(name: str) -> None:
    assert not is_reserved_name(name)


def test_names_compare_without_case_or_spaces() -> None:
    assert name_key("Anna Karin") == name_key("anna  karin") == name_key("ANNAKARIN")


ALICE_LOOK_ALIKES = [
    "alice",  # case
    "ALICE",
    " Al ice ",  # white space
    "Alice\u200b",  # a zero-width space
    "Ali\u00adce",  # a soft hyphen
    "\u0410lice",  # Cyrillic capital A
    "Al\u0456ce",  # Cyrillic i
    "A\u04cfice",  # Cyrillic palochka
    "\uff21lice",  # full-width A
    "A\u2060lice\u200d",  # a word joiner, a zero-width joiner
    "\u200eAlice\u200f",  # bidirectional marks
    "A\U000e0041lice",  # a tag character
    "A\u3164lice",  # a Hangul filler (blank, not a format character)
    "A1ice",  # the digit one is the letter l (UTS #39)
]


@pytest.mark.parametrize("name", ALICE_LOOK_ALIKES)
def test_look_alikes_share_a_skeleton(name: str) -> None:
    assert name_key(name) == name_key("Alice") == "alice"
    assert same_name(name, "Alice")


@pytest.mark.parametrize("name", ["Alicia", "Alice B", "Älice", "Alíce", "Ann", "Iris"])
def test_other_names_do_not(name: str) -> None:
    assert not same_name(name, "Alice")


def test_letters_with_marks_are_other_letters_and_case_is_folded_first() -> None:
    assert not same_name("Åsa", "Asa") and not same_name("Anna", "Änna")
    assert same_name("ÅSA", "åsa")
    # UTS #39 alone puts capital I with l; case-insensitive names keep "Ian" and "ian"
    # one name, so the case is folded first.
    assert same_name("Ian", "ian") and same_name("IAN", "ian")
    assert same_name("Bo Lind", "bolind")


def test_the_plain_key_folds_everything_but_the_look_alikes() -> None:
    assert plain_key("\u0410lice") != "alice" and plain_key("Ali\u00adce") == "alice"
    assert plain_key(" B0b\u200b ") == "b0b"


def test_every_character_has_a_skeleton_without_format_characters_or_spaces() -> None:
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cs", "Co", "Cn"):
            continue
        key = name_key(f"a{ch}b")
        assert not any(unicodedata.category(c) == "Cf" or c.isspace() for c in key), hex(cp)


@given(st.text(max_size=12))
def test_a_skeleton_is_its_own_skeleton(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)


@pytest.mark.parametrize("control", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e"])
def test_bidirectional_embeddings_and_overrides_are_refused(control: str) -> None:
    assert (
        bidi_control(f"Ann{control}")
        == f"a name must not contain a bidirectional control (U+{ord(control):04X})"
    )


@pytest.mark.parametrize("control", ["\u2066", "\u2067", "\u2068", "\u2069"])
def test_bidirectional_isolates_are_refused(control: str) -> None:
    assert bidi_control(f"{control}Ann") is not None


@pytest.mark.parametrize(
    "name", ["Ann", "\u200fAnn", "\u0645\u0647\u200c\u0633\u0627", "\U0001f469\u200d\U0001f4bb"]
)
def test_marks_and_joiners_are_not(name: str) -> None:
    assert bidi_control(name) is None  # a bidirectional mark, Persian ZWNJ, an emoji ZWJ
