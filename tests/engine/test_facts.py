"""app/engine/facts.py: the rule facts clients show, checked against RULES.md and
against deals actually played.

The opening counts and packets are RULES.md's own numbers (R2.2, R2.5, R2.6, V2,
V7), written out here rather than read from the engine; the packet marks of the
view are compared with where packets really came in random deals; the picture ranks
with what R2.4 sets aside; the variants with R7's list.
"""

from __future__ import annotations

import random

import pytest

from app.engine.cards import ALL_CODES
from app.engine.deal import Deal
from app.engine.errors import RulesError
from app.engine.facts import (
    PICTURE_RANKS,
    deal_facts,
    packet_marks,
    packet_sizes,
    playable_counts,
    rules_catalogue,
    rules_from_query,
    variants,
)
from app.engine.rules import RULE_OPTIONS, RuleSet, catalogue
from app.engine.turns import set_aside
from app.engine.views import public_deal_view
from app.simulation import random_deal

# R2.2: players -> (hand cards, table cards, batches of a hand)
R2_2 = {
    2: (6, 4, [3, 3]),
    3: (5, 5, [3, 2]),
    4: (5, 4, [3, 2]),
    5: (4, 4, [2, 2]),
    6: (5, 2, [3, 2]),
}


@pytest.mark.parametrize("players", sorted(R2_2))
def test_the_standard_opening_deal_is_r2_2s_and_the_packets_use_every_card(players: int) -> None:
    hand, table, batches = R2_2[players]
    facts = deal_facts(RuleSet(), players)
    assert (facts["hand"], facts["table"], facts["batches"]) == (hand, table, batches)
    assert facts["cards"] == 104 and facts["packet"] == 4 and facts["packet_batch"] == 2
    # R2.5, R2.6: packets of 4 a player use the stock exactly, no short packet
    assert facts["stock"] == 104 - players * hand - table
    assert facts["packets"] == [4 * players] * (facts["stock"] // (4 * players))
    assert sum(facts["packets"]) == facts["stock"]


def test_four_players_get_five_packets_as_r2_6_says() -> None:
    facts = deal_facts(RuleSet(), 4)
    assert (facts["stock"], facts["packets"]) == (80, [16] * 5)


def test_v2_single_pack_deals_four_and_four_from_52_cards() -> None:
    facts = deal_facts(RuleSet(single_pack=True), 2)
    assert (facts["cards"], facts["hand"], facts["table"], facts["batches"]) == (52, 4, 4, [2, 2])
    assert facts["stock"] == 40 and facts["packets"] == [8] * 5


@pytest.mark.parametrize(
    ("players", "full", "short"),
    [(2, 11, 4), (3, 7, 4), (4, 5, 4)],  # 104 - 4 - 4n = 92, 88, 84
)
def test_v7_four_card_deal_ends_with_a_short_packet(players: int, full: int, short: int) -> None:
    facts = deal_facts(RuleSet(four_card_deal=True), players)
    assert (facts["hand"], facts["table"], facts["batches"]) == (4, 4, [2, 2])
    assert facts["stock"] == 100 - 4 * players
    assert facts["packets"] == [4 * players] * full + [short]


def test_a_rule_set_the_players_cannot_play_has_no_deal() -> None:
    with pytest.raises(RulesError):
        deal_facts(RuleSet(four_card_deal=True), 5)  # V7: 2 to 4 players
    with pytest.raises(RulesError):
        deal_facts(RuleSet(partnership=True), 3)  # V1: 4 players
    assert playable_counts(RuleSet()) == [2, 3, 4, 5, 6]
    assert playable_counts(RuleSet(four_card_deal=True)) == [2, 3, 4]
    assert playable_counts(RuleSet(partnership=True, single_pack=True)) == []


def test_packet_sizes_of_any_stock() -> None:
    assert packet_sizes(3, 0) == ()
    assert packet_sizes(3, 13) == (12, 1)
    assert packet_sizes(2, 7) == (7,)


def _true_marks(deal: Deal, stock_before: list[int]) -> list[dict[str, object]]:
    """Where packets came, read from the moves' results and the stock seen after each."""
    marks = []
    for i, result in enumerate(deal.results):
        if result.packet_dealt:
            size = stock_before[i] - stock_before[i + 1]
            left = stock_before[i + 1]
            marks.append({"after": i + 1, "size": size, "left": left, "last": left == 0})
    return marks


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (RuleSet(), 2),
        (RuleSet(), 3),
        (RuleSet(), 6),
        (RuleSet(four_card_deal=True), 3),
        (RuleSet(four_card_deal=True), 2),
        (RuleSet(single_pack=True), 2),
        (RuleSet(picture_pairs=True), 4),
    ],
)
def test_the_views_packets_are_where_the_deal_dealt_them(rules: RuleSet, players: int) -> None:
    rng = random.Random(players * 31 + rules.four_card_deal)
    deal = random_deal(rules, players, rng)
    stock = [len(deal.stock)]
    while not deal.is_over:
        assert public_deal_view(deal)["packets"] == _true_marks(deal, stock)
        move = rng.choice(deal.legal_moves())
        deal.apply(move.card, move.take)
        stock.append(len(deal.stock))
    marks = public_deal_view(deal)["packets"]
    assert marks == _true_marks(deal, stock)
    assert marks == packet_marks(deal)
    assert [m["size"] for m in marks] == deal_facts(rules, players)["packets"]
    assert marks[-1]["last"] and not any(m["last"] for m in marks[:-1])


def test_a_position_with_empty_hands_gets_its_packet_at_once() -> None:
    stock = ["2C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]
    deal = Deal.from_position(RuleSet(), 2, 0, [[], []], ["3H"], stock)
    assert packet_marks(deal) == [{"after": 0, "size": 8, "left": 0, "last": True}]


def test_the_picture_ranks_are_what_r2_4_sets_aside() -> None:
    assert PICTURE_RANKS == ("J", "Q", "K")
    for code in ALL_CODES:
        keep, spades, other = set_aside([code], RuleSet())
        assert (code[:-1] in PICTURE_RANKS) == (not keep), code
        if not keep:
            assert (spades == [code]) == code.endswith("S")


def test_the_variants_are_r7s_in_order_with_their_options() -> None:
    found = variants()
    assert [v["variant"] for v in found] == [f"V{i}" for i in range(1, 11)]
    assert [v["section"] for v in found] == [f"v{i}" for i in range(1, 11)]
    by = {v["variant"]: v for v in found}
    assert by["V8"]["options"] == ["match_deals", "match_limit"]
    assert by["V9"]["options"] == ["picture_pairs"] and by["V10"]["options"] == ["tie_break_deal"]
    assert by["V1"]["players"] == [4] and by["V2"]["players"] == [2]
    assert by["V7"]["players"] == [2, 3, 4] and by["V3"]["players"] == [2, 3, 4, 5, 6]
    assert {v["scope"] for v in found if v["variant"] in ("V8", "V10")} == {"match"}
    assert sorted(n for v in found for n in v["options"]) == sorted(o.name for o in RULE_OPTIONS)


def test_the_served_catalogue_is_the_engines_plus_the_pages_facts() -> None:
    served = rules_catalogue()
    plain = catalogue()
    assert served["players"] == plain["players"]
    for mine, theirs in zip(served["options"], plain["options"], strict=True):
        assert {k: v for k, v in mine.items() if k not in ("section", "text")} == theirs
        assert mine["section"] == theirs["variant"].lower()
        assert mine["text"] == f"rule_{theirs['name']}"
    assert [{k: v for k, v in x.items() if k != "deals"} for x in served["variants"]] == variants()
    assert served["pictures"] == ["J", "Q", "K"]
    assert served["deals"] == [deal_facts(RuleSet(), n) for n in range(2, 7)]
    # only the variants that deal otherwise carry their deals (V2, V7)
    deals = {v["variant"]: v["deals"] for v in served["variants"] if v["deals"] is not None}
    assert set(deals) == {"V2", "V7"}
    assert deals["V2"] == [deal_facts(RuleSet(single_pack=True), 2)]
    assert deals["V7"] == [deal_facts(RuleSet(four_card_deal=True), n) for n in (2, 3, 4)]


def test_rules_from_query_parameters() -> None:
    assert rules_from_query([]) == RuleSet()
    assert rules_from_query([("four_card_deal", "true"), ("nordic", "0")]) == RuleSet(
        four_card_deal=True
    )
    assert rules_from_query([("match_deals", "6")]) == RuleSet(match_deals=6)
    assert rules_from_query([("match_limit", "null")]) == RuleSet()
    for bad in (
        [("no_such_rule", "true")],
        [("nordic", "yes")],
        [("match_deals", "many")],
        [("match_deals", "0")],
        [("match_deals", "6"), ("match_limit", "100")],
    ):
        with pytest.raises(RulesError):
            rules_from_query(bad)
