"""Setting up a deal: from a shuffled pack (R2.2, R2.3) or from a position.

A deal starts either from a complete pack, dealt by R2.2, or from a position
(FORMAT.md scenarios; search resuming in the middle of a deal).  Either way
the input is checked in full first and rejected with a ``SetupError``, then
the opening rules are applied once: pictures leave the table (R2.4) and V5
(bordstabbe) is charged.  None of this is needed again once the deal runs,
so it lives apart from ``Deal`` (deal.py), which exposes these functions as
its classmethods ``Deal.from_pack``, ``Deal.from_position`` and
``Deal.resume``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import ALL_CODES, Card, is_card, table_value
from .errors import SetupError
from .moves import ORDER_KEY
from .position import check_position
from .results import Opening
from .rules import RuleSet
from .scoring import BORDSTABBE, Score
from .turns import deal_opening, packet_order

if TYPE_CHECKING:
    from .deal import Deal

_FULL_PACK: dict[int, dict[Card, int]] = {n: {c: n for c in ALL_CODES} for n in (1, 2)}
"""What a complete pack holds, compared as plain dicts (Counter's == is slow Python)."""


def from_pack(
    cls: type[Deal], rules: RuleSet, players: int, dealer: int, pack: Sequence[Card]
) -> Deal:
    """Deal a shuffled pack (top first) per R2.2, R2.3 (V2, V7)."""
    rules.validate_for(players)
    expected = 52 * rules.copies
    try:
        complete = len(pack) == expected and dict.__eq__(Counter(pack), _FULL_PACK[rules.copies])
    except TypeError:  # an unhashable "card"
        complete = False
    if not complete:
        raise SetupError(
            f"a pack for these rules holds {expected} cards, each {rules.copies} time(s)"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise SetupError("the dealer must be one of the seats")
    hands, table, stock = deal_opening(pack, players, dealer, rules.opening_counts(players))
    # A complete pack dealt by R2.2 is a valid position: no need to check it again.
    return _build(
        cls,
        rules,
        players,
        dealer,
        hands,
        table,
        stock,
        packet_order(players, dealer)[0],
        True,
        None,
    )


def from_position(
    cls: type[Deal],
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card] = (),
    to_move: int | None = None,
    *,
    opening: bool = True,
    last_capturer: int | None = None,
) -> Deal:
    """Set up a deal from a position (FORMAT.md), validating all of it first.

    ``opening`` (the default) treats the table as just dealt: pictures are
    set aside (R2.4) and V5 is checked.  Search code that resumes a deal in
    the middle passes ``opening=False``: the table is kept as it lies
    (crept pictures included) and ``last_capturer`` is carried over.
    """
    to_move = check_position(rules, players, dealer, hands, table, stock, to_move, last_capturer)
    return _build(cls, rules, players, dealer, hands, table, stock, to_move, opening, last_capturer)


def resume(
    cls: type[Deal],
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card],
    to_move: int,
    *,
    last_capturer: int | None = None,
    set_aside_spades: Sequence[Card] = (),
    set_aside_other: Sequence[Card] = (),
) -> Deal:
    """Resume a deal from a position in its middle (what search needs).

    The table is kept as it lies (crept pictures included, R2.5 cleans
    them only before the next packet), the last capturer is carried over
    (R5.1) and the set-aside pictures join the end award as in the real
    deal.  The position is validated like a scenario's.
    """
    deal = from_position(
        cls,
        rules,
        players,
        dealer,
        hands,
        table,
        stock,
        to_move,
        opening=False,
        last_capturer=last_capturer,
    )
    for part, name in (
        (set_aside_spades, "set_aside_spades"),
        (set_aside_other, "set_aside_other"),
    ):
        if not all(is_card(c) for c in part):
            raise SetupError(f"{name} must hold card codes")
    deal.set_aside_spades = list(set_aside_spades)
    deal.set_aside_other = list(set_aside_other)
    return deal


def _build(
    cls: type[Deal],
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card],
    to_move: int,
    opening: bool,
    last_capturer: int | None,
) -> Deal:
    """The deal of a position already known to be valid."""
    deal = cls(
        rules=rules,
        players=players,
        dealer=dealer,
        opening=Opening([list(h) for h in hands], list(table), list(stock), to_move),
        # Hands are kept in canonical order: legal moves come out in that order.
        hands=[sorted(h, key=ORDER_KEY) for h in hands],
        table=list(table),
        stock=list(stock),
        to_move=to_move,
        last_player=(to_move - 1) % players,
        piles=[[] for _ in range(players)],
        sweep_markers=[[] for _ in range(players)],
        scores=[Score() for _ in range(players)],
    )
    deal.last_capturer = last_capturer
    if opening:
        deal.set_aside_pictures()  # R2.4
        _apply_bordstabbe(deal)  # V5
    if not any(deal.hands):
        deal.after_hands_empty()
    return deal


def _apply_bordstabbe(deal: Deal) -> None:
    """V5: a cleaned opening table of 2+ cards of one value costs the first player 5."""
    if not deal.rules.bordstabbe or len(deal.table) < 2:
        return
    if len({table_value(c) for c in deal.table}) == 1:
        seat = (deal.dealer + 1) % deal.players
        deal.scores[seat].bordstabbe += BORDSTABBE
        deal.bordstabbe_seat = seat
