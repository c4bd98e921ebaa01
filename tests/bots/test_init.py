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

from .helpers import (
    CONFIGS,
    as_dict,
    config_id,
    in_legal,
    knowing,
    position,
    twin_deals,
    view_for,
)


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


@pytest.mark.parametrize("plies", [0, 6])
def test_hidden_cards_do_not_change_the_decision(plies):
    me = 1
    deal_a, deal_b = twin_deals(f"hidden:{plies}", me, plies)
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
