"""Building what a seat knows (views, information sets) for bot tests from positions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.bots import choose_move
from app.engine.deal import Deal
from app.engine.infoset import InformationSet
from app.engine.match import Match
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.engine.views import match_view


def view_for(deal: Deal, seat: int | None = None, match: Match | None = None) -> dict[str, Any]:
    """The view of ``seat`` (default: the seat to move), as the server would send it."""
    seat = deal.to_move if seat is None else seat
    match = match or Match(deal.rules, deal.players, deal.dealer)
    return match_view(match, deal, seat, "playing", 1)


def knowing(deal: Deal) -> tuple[InformationSet, tuple[LegalMove, ...]]:
    """What the typed entry point gets for the seat to move: its information set and
    its legal moves.

    The information set is read from the seat's view: in a real deal that is
    ``deal.information_set(seat)`` (test_knowledge.py checks it at every turn),
    while in a constructed position, which holds only some of the cards, the view
    leaves every card the seat never saw possibly hidden, as in a real deal,
    where the deal itself knows the few cards it holds.
    """
    assert deal.to_move is not None
    return InformationSet.from_view(view_for(deal)), deal.legal()


def as_dict(move: LegalMove) -> dict[str, Any]:
    """A chosen move as ``choose_move`` answers it."""
    return {"card": move.card, "take": list(move.take)}


def position(
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    *,
    players: int | None = None,
    dealer: int | None = None,
    to_move: int = 0,
    stock: Sequence[str] = (),
    rules: RuleSet | None = None,
    last_capturer: int | None = None,
) -> Deal:
    """A mid-deal position (crept pictures stay, R2.4 is not applied)."""
    players = players or len(hands)
    dealer = (to_move - 1) % players if dealer is None else dealer
    return Deal.from_position(
        rules or RuleSet(),
        players,
        dealer,
        [list(h) for h in hands],
        list(table),
        list(stock),
        to_move,
        opening=False,
        last_capturer=last_capturer,
    )


def twin_deals(seed: str, me: int, plies: int):
    """Two deals with the same public history whose hidden cards differ.

    The first deal is played for ``plies`` moves (within the opening packet); the
    second starts from the same opening except that the cards nobody has shown
    (other seats' unplayed cards and the stock) are shuffled among their places,
    and then replays the same moves.
    """
    rules = RuleSet()
    players = 4
    deal_a = Deal.from_pack(rules, players, 0, shuffled_pack(seed, 2))
    rng = random.Random(seed)
    while len(deal_a.results) < plies or deal_a.to_move != me:
        move = choose_move(view_for(deal_a), "greedy", rng=rng)
        deal_a.apply(move["card"], move["take"])
    assert deal_a.packets_dealt == 0
    opening = deal_a.opening
    shown = [[r.card for r in deal_a.results if r.seat == s] for s in range(players)]
    places = []  # (hand index or None for the stock, position)
    for s in range(players):
        if s == me:
            continue
        left = list(shown[s])
        for i, card in enumerate(opening.hands[s]):
            if card in left:
                left.remove(card)
            else:
                places.append((s, i))
    places += [(None, i) for i in range(len(opening.stock))]
    for attempt in range(50):
        hands = [list(h) for h in opening.hands]
        stock = list(opening.stock)
        cards = [hands[s][i] if s is not None else stock[i] for s, i in places]
        random.Random(f"{seed}:{attempt}").shuffle(cards)
        for (s, i), card in zip(places, cards):
            if s is None:
                stock[i] = card
            else:
                hands[s][i] = card
        if hands == opening.hands and stock == opening.stock:
            continue
        deal_b = Deal.from_position(rules, players, 0, hands, opening.table, stock, opening.to_move)
        try:
            for move in deal_a.moves:
                deal_b.apply(move.card, move.take)
        except Exception:  # a changed hand made a replayed move illegal (R4.1): retry
            continue
        return deal_a, deal_b
    raise AssertionError("no second deal found")


def same_move(a: dict, b: dict) -> bool:
    return a["card"] == b["card"] and sorted(a["take"]) == sorted(b["take"])


def in_legal(move: dict, view: dict) -> bool:
    return any(same_move(move, m) for m in view["legal"])


CONFIGS: list[tuple[int, dict[str, bool]]] = (
    [(n, {}) for n in range(2, 7)]
    + [(n, {"nordic": True, "bordstabbe": True}) for n in range(2, 7)]
    + [(n, {"no_forced_sweep": True}) for n in (2, 3, 5)]
    + [(n, {"strict_capture": True}) for n in (2, 4, 6)]
    + [(n, {"four_card_deal": True}) for n in (2, 3, 4)]
    + [(3, {"four_card_deal": True, "strict_capture": True, "no_forced_sweep": True})]
    + [
        (2, {"single_pack": True}),
        (2, {"single_pack": True, "strict_capture": True, "nordic": True, "bordstabbe": True}),
    ]
    + [
        (4, {"partnership": True}),
        (4, {"partnership": True, "four_card_deal": True, "no_forced_sweep": True}),
    ]
    + [(n, {"picture_pairs": True}) for n in (2, 4, 5)]
    + [(3, {"picture_pairs": True, "strict_capture": True, "tie_break_deal": True})]
)
"""Player counts and rule options covering every variant and some combinations (R7)."""


def config_id(config: tuple[int, dict[str, bool]]) -> str:
    n, opts = config
    return f"{n}p-" + ("+".join(sorted(opts)) or "standard")
