"""The shapes of the rule catalogue and the deal facts the engine serves (GET /api/rules).

Clients build their forms and the rules page from these, so they are typed like
the view (app/engine/view_types.py): plain JSON with a ``TypedDict`` each.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class OptionJson(TypedDict):
    """One rule option of R7 (rules.py ``RULE_OPTIONS``)."""

    name: str
    variant: str
    label: str
    type: str
    default: bool | int | None
    scope: str
    players: list[int]
    incompatible: list[str]
    minimum: NotRequired[int | None]
    maximum: NotRequired[int | None]
    nullable: NotRequired[bool]
    section: NotRequired[str]
    """The rules page's section of its variant (facts.py adds it)."""
    text: NotRequired[str]
    """The key its name and help are translated by (facts.py adds it)."""


class PlayerRange(TypedDict):
    minimum: int
    maximum: int


class Catalogue(TypedDict):
    players: PlayerRange
    options: list[OptionJson]


class DealFacts(TypedDict):
    """A rule set's opening deal and packets for one player count (R2.2-R2.6)."""

    players: int
    cards: int
    hand: int
    batches: list[int]
    table: int
    stock: int
    packet: int
    packet_batch: int
    packets: list[int]


class VariantJson(TypedDict):
    variant: str
    section: str
    label: str
    options: list[str]
    players: list[int]
    scope: str
    deals: NotRequired[list[DealFacts] | None]


class RulesCatalogue(Catalogue):
    """GET /api/rules: the catalogue and the facts shown beside it."""

    variants: list[VariantJson]
    deals: list[DealFacts]
    pictures: list[str]
