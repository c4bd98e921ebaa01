"""choose and choose_move: always a legal move, from the seat's knowledge only."""

from __future__ import annotations

import json
import random

import pytest

from app.bots import LEVELS, choose, choose_move, levels, strong
from app.engine.deal import Deal
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack

from .helpers import CONFIGS, as_dict, config_id, in_legal, knowing, position, view_for


def test_levels():
    assert LEVELS == ("random", "greedy", "strong")


def test_the_typed_entry_point_rejects_an_unknown_level_and_no_moves():
    deal = position([["5C", "KD"], ["QD", "QH"]], ["5H"])
    info, legal = knowing(deal)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(info, legal, "genius")
    with pytest.raises(ValueError, match="no legal move"):
        choose(deal.information_set(1), (), "greedy")


@pytest.mark.parametrize("level", ["random", "greedy"])
@pytest.mark.parametrize("config", CONFIGS[::4], ids=config_id)
def test_the_view_adapter_chooses_what_the_typed_entry_chooses(config, level):
    """choose_move(view) and choose(info, legal) see the same seat and decide alike."""
    players, options = config
    rules = RuleSet.from_dict(options)
    deal = Deal.from_pack(
        rules, players, 0, shuffled_pack(f"same:{config_id(config)}", rules.copies)
    )
    rng = random.Random(1)
    while not deal.is_over:
        info, legal = knowing(deal)
        typed = choose(info, legal, level, rng=random.Random(len(deal.results)))
        wire = choose_move(view_for(deal), level, rng=random.Random(len(deal.results)))
        assert typed in legal and as_dict(typed) == wire
        move = rng.choice(legal)
        deal.apply(move.card, move.take)


def test_rejects_an_unknown_level_and_a_view_without_moves():
    view = view_for(position([["5C", "KD"], ["QD", "QH"]], ["5H"]))
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_move(view, "genius")
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(view_for(position([["5C", "KD"], ["QD", "QH"]], ["5H"]), seat=1), "greedy")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_moves_are_always_legal(config):
    """Whole deals of random and greedy bots, plus a few quick strong moves, every variant."""
    players, options = config
    rules = RuleSet.from_dict(options)
    rng = random.Random(f"legal:{config_id(config)}")
    for deal_no in range(2):
        pack = shuffled_pack(f"legal:{config_id(config)}:{deal_no}", rules.copies)
        deal = Deal.from_pack(rules, players, deal_no % players, pack)
        levels = [("greedy", "random")[(seat + deal_no) % 2] for seat in range(players)]
        strong_turns = {7, 31} if deal_no == 0 else set()
        while not deal.is_over:
            view = view_for(deal)
            if len(deal.results) in strong_turns:
                move = as_dict(strong.choose(*knowing(deal), rng, iterations=2))
            else:
                move = choose_move(view, levels[deal.to_move], rng=rng)
            assert set(move) == {"card", "take"}
            assert in_legal(move, view), (move, view["legal"])
            deal.apply(move["card"], move["take"])  # the engine agrees


def test_works_on_a_json_view_and_returns_a_fresh_dict():
    deal = Deal.from_pack(RuleSet(), 3, 0, shuffled_pack("json", 2))
    view = view_for(deal)
    wire = json.loads(json.dumps(view))
    for level in LEVELS:
        a = choose_move(view, level, rng=random.Random(3), budget_s=0.05)
        b = choose_move(wire, level, rng=random.Random(3), budget_s=0.05)
        assert in_legal(a, view) and in_legal(b, view)
        if level != "strong":  # strong stops on the clock; the others are deterministic
            assert a == b
        assert all(a is not m and a["take"] is not m["take"] for m in view["legal"])


def _twin_deals(seed: str, me: int, plies: int):
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


@pytest.mark.parametrize("plies", [0, 6])
def test_hidden_cards_do_not_change_the_decision(plies):
    me = 1
    deal_a, deal_b = _twin_deals(f"hidden:{plies}", me, plies)
    assert [h for s, h in enumerate(deal_a.hands) if s != me] != [
        h for s, h in enumerate(deal_b.hands) if s != me
    ] or deal_a.stock != deal_b.stock
    view_a, view_b = view_for(deal_a, me), view_for(deal_b, me)
    assert view_a == view_b  # the server sends the same thing ...
    for level in ("random", "greedy"):  # ... so the bots decide the same
        assert choose_move(view_a, level, rng=random.Random(9)) == choose_move(
            view_b, level, rng=random.Random(9)
        )
    info_a, legal_a = knowing(deal_a)
    info_b, legal_b = knowing(deal_b)
    assert info_a == info_b and legal_a == legal_b  # the engine tells the seat the same
    assert strong.choose(info_a, legal_a, random.Random(9), iterations=6) == strong.choose(
        info_b, legal_b, random.Random(9), iterations=6
    )


def test_a_failing_level_still_moves(caplog):
    """A search that fails (here: asked about a move the position does not allow, which
    the engine refuses in every sampled world) still yields one of the moves offered."""
    deal = position([["5C", "KD"], ["QD", "QH"]], ["5H", "9C"])
    info, legal = knowing(deal)
    assert len(legal) == 2
    foreign = LegalMove("2C", (), "creep", 0, 0)  # not in the hand
    offered = (*legal, foreign)
    for seed in range(8):
        move = choose(info, offered, "strong", rng=random.Random(seed), budget_s=0.05)
        assert move in offered
    assert "failed" in caplog.text


def test_an_illegal_choice_is_replaced_by_a_legal_move(monkeypatch, caplog):
    deal = position([["5C", "KD"], ["QD", "QH"]], ["5H", "9C"])
    info, legal = knowing(deal)
    stray = LegalMove("KD", ("5H",), "capture", 0, 0)
    monkeypatch.setattr(levels, "strong_choose", lambda *a, **k: stray)
    move = choose(info, legal, "strong", rng=random.Random(1))
    assert move in legal and move != stray
    assert "illegal" in caplog.text
