"""Is a position possible?  The checks of FORMAT.md before any move is played.

A scenario, a resumed search world or any other position given from outside
is checked here in full (R1.1, R1.3, R2.5, V7), so that ``Deal`` can trust
what it is built from.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, count_excess, is_card
from .errors import SetupError
from .rules import RuleSet
from .turns import PACKET_SIZE


def check_position(
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card],
    to_move: int | None,
    last_capturer: int | None,
) -> int:
    """Raise SetupError (RulesError) for an impossible position; else the seat to move.

    ``to_move`` defaults to the leader, the seat left of the dealer (R2.1).
    """
    rules.validate_for(players)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise SetupError("dealer must be a seat number 0..players-1")
    if to_move is None:
        to_move = (dealer + 1) % players
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < players:
        raise SetupError("to_move must be a seat number 0..players-1")
    if not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise SetupError(f"hands must list {players} hands, one per seat")
    all_cards: list[Card] = []
    for part, name in [(h, "hand") for h in hands] + [(table, "table"), (stock, "stock")]:
        if not isinstance(part, (list, tuple)):
            raise SetupError(f"{name} must be a list of card codes")
        for card in part:
            if not is_card(card):
                raise SetupError(f"unknown card code: {card!r}")
        all_cards.extend(part)
    excess = count_excess(all_cards, rules.copies)
    if excess:
        raise SetupError(f"more copies than the pack holds: {', '.join(excess)}")
    sizes = [len(hands[(to_move + i) % players]) for i in range(players)]
    if any(b > a for a, b in zip(sizes, sizes[1:], strict=False)) or sizes[0] - sizes[-1] > 1:
        raise SetupError(
            "hand sizes must not grow clockwise from to_move and may differ by at most one"
        )
    packet = PACKET_SIZE * players
    if stock and not rules.four_card_deal and len(stock) % packet:
        raise SetupError(
            f"a stock of {len(stock)} cannot be dealt in packets of 4 to each of {players} players"
        )
    if last_capturer is not None and (
        isinstance(last_capturer, bool)
        or not isinstance(last_capturer, int)
        or not 0 <= last_capturer < players
    ):
        raise SetupError("last_capturer must be a seat")
    return to_move
