"""Cards, codes, values and card points (RULES.md R1, R6.1, V3).

A card is represented by its code string (``"10D"``, ``"AS"``) everywhere: codes
are what the wire, the database and the scenarios use, twins are simply equal
strings (R1.1), and strings hash and compare fast.  Everything in this module
is a pure lookup into tables built once at import time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

Card = str
"""A card code: rank ``A 2 .. 10 J Q K`` followed by suit ``S H D C`` (R1.2)."""

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
PICTURES: frozenset[str] = frozenset({"J", "Q", "K"})

ALL_CODES: tuple[Card, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
"""Every distinct code in canonical order (rank first, then S H D C)."""

_ORDER: dict[Card, int] = {code: i for i, code in enumerate(ALL_CODES)}
_TABLE_VALUE: dict[Card, int] = {code: RANKS.index(code[:-1]) + 1 for code in ALL_CODES}
_HAND_VALUE: dict[Card, int] = {code: (14 if v == 1 else v) for code, v in _TABLE_VALUE.items()}


def is_card(code: object) -> bool:
    """True when ``code`` is a valid card code (R1.2)."""
    return isinstance(code, str) and code in _ORDER


def rank(card: Card) -> str:
    return card[:-1]


def suit(card: Card) -> str:
    return card[-1]


def table_value(card: Card) -> int:
    """Value of a card lying on the table: an ace counts 1 (R1.4)."""
    return _TABLE_VALUE[card]


def hand_value(card: Card) -> int:
    """Value of a card played from hand: an ace counts 14 (R1.4)."""
    return _HAND_VALUE[card]


def is_picture(card: Card) -> bool:
    return card[:-1] in PICTURES


def sort_key(card: Card) -> int:
    """Canonical order of FORMAT.md: by rank A..K, then suits S H D C."""
    return _ORDER[card]


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_ORDER.__getitem__)


def card_points(card: Card, nordic: bool = False) -> int:
    """Penalty points of one captured card (R6.1; V3 makes the 10 of diamonds 0)."""
    if card == "10D":
        return 0 if nordic else 3
    if card == "2S" or card == "AS":
        return 2
    if card[-1] == "S" or card[0] == "A":
        return 1
    return 0


def pack(copies: int = 2) -> list[Card]:
    """An unshuffled pack: every code ``copies`` times (R1.1; one copy for V2)."""
    return [code for code in ALL_CODES for _ in range(copies)]


def count_excess(cards: Iterable[Card], copies: int) -> list[Card]:
    """Codes that occur more often than ``copies`` packs hold (for input validation)."""
    return sorted_cards(code for code, n in Counter(cards).items() if n > copies)
