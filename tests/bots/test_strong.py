"""The search bot: sampled worlds agree with the view; it finds the better move."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots import choose_move, strong
from app.bots.knowledge import read_view
from app.engine.cards import ALL_CODES, hand_value
from app.engine.counts import table_counts
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.engine.takes import can_sweep

from .helpers import CONFIGS, as_dict, config_id, in_legal, knowing, position, view_for


def _mid_deal(players: int, rules: RuleSet, seed: str, plies: int) -> Deal:
    deal = Deal.from_pack(rules, players, 0, shuffled_pack(seed, rules.copies))
    rng = random.Random(seed)
    while len(deal.results) < plies:
        move = choose_move(view_for(deal), "greedy", rng=rng)
        deal.apply(move["card"], move["take"])
    return deal


@pytest.mark.parametrize("config", CONFIGS[::3], ids=config_id)
def test_sampled_worlds_agree_with_the_view(config):
    players, options = config
    rules = RuleSet.from_dict(options)
    deal = _mid_deal(players, rules, f"worlds:{config_id(config)}", 3 * players + 1)
    view = view_for(deal)
    k = read_view(view)
    rng = random.Random(1)
    for _ in range(20):
        hands, stock = strong.sample_world(k, rng)
        assert hands[k.me] == list(k.hand)
        assert [len(h) for h in hands] == [len(h) for h in deal.hands]
        assert len(stock) == len(deal.stock)
        assert Counter(stock) + Counter(
            c for s, h in enumerate(hands) if s != k.me for c in h
        ) == Counter(k.unseen)
        for seat, lacks in k.lacks.items():
            assert not {hand_value(c) for c in hands[seat]} & lacks
        world = strong.build_deal(k, hands, stock)
        assert world.legal_described() == view["legal"]
        assert world.table == deal.table
        assert world.last_player == deal.last_player
        assert world.last_capturer == deal.last_capturer
        assert world.set_aside_spades == deal.set_aside_spades


def test_sampling_honours_inferred_gaps():
    # seat 1 crept on 3C 7H: it holds no 10 (R4.1); no sampled world may give it one
    deal = position(
        [["KD", "KH"], ["2D", "QC", "JC"], ["JD", "JH"]], ["3C", "7H"], to_move=1, players=3
    )
    deal.apply("2D", [])
    deal.apply("JD", [])
    k = read_view(view_for(deal))
    assert k.me == 0 and k.lacks[1] == frozenset({10})
    rng = random.Random(2)
    for _ in range(200):
        hands, _ = strong.sample_world(k, rng)
        assert not any(c.startswith("10") for c in hands[1])


def test_deterministic_for_a_seeded_rng_and_fixed_iterations():
    deal = _mid_deal(4, RuleSet(), "determinism", 9)
    info, legal = knowing(deal)
    first = strong.choose(info, legal, random.Random(4), iterations=5)
    again = [strong.choose(info, legal, random.Random(4), iterations=5) for _ in range(2)]
    assert again == [first, first]


def test_finds_the_forced_sweep_trap():
    deal = position([["2D", "7C"], ["KD", "KH"], ["QD"], ["QH"]], ["3C", "10H"])
    move = strong.choose(*knowing(deal), random.Random(5), iterations=40)
    assert (move.card, move.take) == ("7C", ())


def test_does_not_capture_storan():
    deal = position([["10D", "5C"], ["KD", "KH"], ["QD"], ["QH"]], ["10H", "9C", "8H"])
    move = strong.choose(*knowing(deal), random.Random(6), iterations=40)
    assert (move.card, move.take) == ("5C", ())


def _replay(deal: Deal) -> Deal:
    o = deal.opening
    copy = Deal.from_position(
        deal.rules, deal.players, deal.dealer, o.hands, o.table, o.stock, o.to_move
    )
    for m in deal.moves:
        copy.apply(m.card, m.take)
    return copy


def _forced_outcome(deal: Deal, me: int) -> float | None:
    """Own minus other's final score when every later move is forced; else None."""
    while not deal.is_over:
        moves = deal.legal_moves()
        if len(moves) > 1:
            return None
        deal.apply(moves[0].card, moves[0].take)
    totals = deal.totals()
    return totals[me] - totals[1 - me]


def test_plays_a_known_ending_exactly():
    """Two players, the stock is empty and three cards are left: the bot sees everything
    (the unseen cards are exactly the other hand).  When the rest is forced, its choice
    must be the best one by the exact outcome; greedy's heuristics need not be."""
    checked = 0
    for seed in range(40):
        deal = Deal.from_pack(RuleSet(), 2, seed % 2, shuffled_pack(f"ending:{seed}", 2))
        rng = random.Random(seed)
        while sum(len(h) for h in deal.hands) + len(deal.stock) > 3:
            move = choose_move(view_for(deal), "greedy", rng=rng)
            deal.apply(move["card"], move["take"])
        view = view_for(deal)
        if len(view["legal"]) < 2:
            continue
        me = deal.to_move
        outcomes = []
        for m in view["legal"]:
            line = _replay(deal)
            line.apply(m["card"], m["take"])
            outcomes.append(_forced_outcome(line, me))
        if None in outcomes or len(set(outcomes)) < 2:
            continue
        info, legal = knowing(deal)
        assert [m.to_json() for m in legal] == view["legal"]
        pick = strong.choose(info, legal, random.Random(seed), iterations=3)
        assert outcomes[legal.index(pick)] == min(outcomes), (seed, view["legal"], outcomes)
        checked += 1
    assert checked >= 3


def test_evaluate_uses_team_scores_under_partnership():
    rules = RuleSet(partnership=True)
    deal = position([["5C"], ["KD"], ["QD"], ["QH"]], ["5H", "AS"], to_move=0, rules=rules)
    view = view_for(deal)
    k = read_view(view)
    world = strong.build_deal(k, [["5C"], ["KD"], ["QD"], ["QH"]], [])
    world.apply("5C", ["5H"])  # seat 0 takes 5H; the rest creep; seat 0 gets the AS at the end
    while not world.is_over:
        m = world.legal_moves()[0]
        world.apply(m.card, m.take)
    totals = world.totals()
    assert strong.evaluate(world, 0) == (totals[0] + totals[2]) - (totals[1] + totals[3])
    assert strong.evaluate(world, 1) == (totals[1] + totals[3]) - (totals[0] + totals[2])


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_searches_the_packet_ends_of_every_variant(config):
    """The last plies of every packet (short V7 packets, skipped seats, the final award)
    are where a resumed world is most delicate: the search must handle them itself,
    without the fallback of choose_move."""
    players, options = config
    rules = RuleSet.from_dict(options)
    deal = Deal.from_pack(
        rules, players, 1 % players, shuffled_pack(f"ends:{config_id(config)}", rules.copies)
    )
    rng = random.Random(config_id(config))
    searched = 0
    while not deal.is_over:
        view = view_for(deal)
        in_hands = sum(len(h) for h in deal.hands)
        if in_hands <= players + 1 and (len(deal.stock) <= 4 * players or in_hands == 1):
            move = as_dict(strong.choose(*knowing(deal), rng, iterations=1))
            searched += len(view["legal"]) > 1
        else:
            move = choose_move(view, "greedy", rng=rng)
        assert in_legal(move, view)
        deal.apply(move["card"], move["take"])
    assert searched


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(sorted(ALL_CODES)), min_size=0, max_size=9),
    pairs=st.booleans(),
)
def test_the_remembered_sweeping_values_are_the_engines(cards, pairs):
    """The playouts' memo answers what ``takes.can_sweep`` answers per value (the old path)."""
    counts = table_counts(cards)
    values = {hand_value(c) for c in ALL_CODES}
    expected = frozenset(v for v in values if can_sweep(counts, v, pairs))
    assert strong.sweeping_value_set(counts, pairs) == expected
    assert strong.sweeping_value_set(counts, pairs) == expected  # and again, remembered
