"""Rule sets (RULES.md R7): defaults, options, and every impossible combination."""

from __future__ import annotations

import pytest

from app.engine.errors import RulesError
from app.engine.rules import RuleSet

BOOL_OPTIONS = [
    "partnership",
    "single_pack",
    "nordic",
    "no_forced_sweep",
    "bordstabbe",
    "strict_capture",
    "four_card_deal",
]


def test_the_standard_rules_are_the_default():
    """R7: every variant is off unless chosen."""
    rules = RuleSet()
    assert RuleSet.from_dict(None) == rules
    assert RuleSet.from_dict({}) == rules
    assert not any(getattr(rules, name) for name in BOOL_OPTIONS)
    assert rules.match_deals is None and rules.match_limit is None
    assert rules.forced_sweep
    assert rules.copies == 2


@pytest.mark.parametrize("name", BOOL_OPTIONS)
def test_each_boolean_option_can_be_set_alone(name):
    """R7: each variant is an independent option."""
    rules = RuleSet.from_dict({name: True})
    assert getattr(rules, name) is True
    assert rules.to_dict()[name] is True


def test_rule_sets_round_trip_through_dicts():
    rules = RuleSet.from_dict({"nordic": True, "bordstabbe": True, "match_deals": 6})
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_no_forced_sweep_turns_r4_1_off():
    """V4: R4.1 does not apply."""
    assert not RuleSet(no_forced_sweep=True).forced_sweep


def test_single_pack_has_one_copy_of_each_card():
    """V2: one 52-card pack."""
    assert RuleSet(single_pack=True).copies == 1


def test_unknown_option_is_an_error():
    """FORMAT.md: an unknown rule option is malformed input."""
    with pytest.raises(RulesError, match="unknown rule option"):
        RuleSet.from_dict({"builds": True})


@pytest.mark.parametrize("value", [1, 0, "true", None, [], 1.0])
@pytest.mark.parametrize("name", BOOL_OPTIONS)
def test_boolean_options_must_be_true_or_false(name, value):
    with pytest.raises(RulesError):
        RuleSet.from_dict({name: value})


@pytest.mark.parametrize("name", ["match_deals", "match_limit"])
@pytest.mark.parametrize("value", [True, False, "6", 6.0, 0, -1, 1001, []])
def test_match_length_must_be_a_whole_number_in_range(name, value):
    """V8: a number of deals or a points limit (1..1000), or null."""
    with pytest.raises(RulesError):
        RuleSet.from_dict({name: value})


@pytest.mark.parametrize("name", ["match_deals", "match_limit"])
def test_match_length_may_be_null(name):
    assert getattr(RuleSet.from_dict({name: None}), name) is None
    assert getattr(RuleSet.from_dict({name: 6}), name) == 6


def test_fixed_deals_and_points_limit_exclude_each_other():
    """V8: either a fixed number of deals or a points limit, not both."""
    with pytest.raises(RulesError, match="not both"):
        RuleSet.from_dict({"match_deals": 6, "match_limit": 100})


@pytest.mark.parametrize("data", [[], "nordic", 1, True])
def test_rules_must_be_an_object(data):
    with pytest.raises(RulesError):
        RuleSet.from_dict(data)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_standard_rules_suit_two_to_six_players(players):
    """R1.3: 2 to 6 players."""
    RuleSet().validate_for(players)


@pytest.mark.parametrize("players", [0, 1, 7, 8, -2])
def test_fewer_than_two_or_more_than_six_players_is_an_error(players):
    """R1.3."""
    with pytest.raises(RulesError):
        RuleSet().validate_for(players)


@pytest.mark.parametrize("players", ["4", 4.0, True, None])
def test_players_must_be_a_whole_number(players):
    with pytest.raises(RulesError):
        RuleSet().validate_for(players)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_partnership_without_four_players_is_an_error(players):
    """V1: 4 players in two teams."""
    with pytest.raises(RulesError, match="partnership"):
        RuleSet(partnership=True).validate_for(players)
    RuleSet(partnership=True).validate_for(4)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_single_pack_with_more_than_two_players_is_an_error(players):
    """V2: one pack, 2 players."""
    with pytest.raises(RulesError, match="single pack"):
        RuleSet(single_pack=True).validate_for(players)
    RuleSet(single_pack=True).validate_for(2)


@pytest.mark.parametrize("players", [5, 6])
def test_four_card_deal_with_five_or_six_players_is_an_error(players):
    """V7: for 2 to 4 players."""
    with pytest.raises(RulesError, match="four-card deal"):
        RuleSet(four_card_deal=True).validate_for(players)
    for ok in (2, 3, 4):
        RuleSet(four_card_deal=True).validate_for(ok)


def test_partnership_and_single_pack_can_never_be_played_together():
    """V1 needs 4 players, V2 exactly 2: no player count suits both."""
    rules = RuleSet(partnership=True, single_pack=True)
    for players in range(2, 7):
        with pytest.raises(RulesError):
            rules.validate_for(players)


@pytest.mark.parametrize(
    "players,expected",
    [
        (2, ((3, 3), 4)),
        (3, ((3, 2), 5)),
        (4, ((3, 2), 4)),
        (5, ((2, 2), 4)),
        (6, ((3, 2), 2)),
    ],
)
def test_opening_deal_by_number_of_players(players, expected):
    """R2.2: 2 -> 6/4, 3 -> 5/5, 4 -> 5/4, 5 -> 4/4, 6 -> 5/2, batches 3+3, 3+2, 2+2."""
    assert RuleSet().opening_counts(players) == expected


@pytest.mark.parametrize("rules", [RuleSet(single_pack=True), RuleSet(four_card_deal=True)])
def test_single_pack_and_four_card_deal_open_with_four_and_four(rules):
    """V2, V7: 4 cards each as 2+2 and 4 on the table."""
    assert rules.opening_counts(2) == ((2, 2), 4)


def test_partners_sit_opposite():
    """V1: seats 0+2 and 1+3."""
    rules = RuleSet(partnership=True)
    assert [rules.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert RuleSet().partner_of(1) is None
    assert RuleSet().team_of(3) == 3


def test_rule_sets_are_immutable_values():
    rules = RuleSet()
    with pytest.raises(AttributeError):
        rules.nordic = True  # type: ignore[misc]
    assert hash(RuleSet(nordic=True)) == hash(RuleSet(nordic=True))
