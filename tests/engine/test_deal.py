"""One deal (RULES.md R2..R6, V5, V7): setup errors, move errors and their
precedence (scenarios/FORMAT.md), packets, the end award and dealing order."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine.cards import ALL_CODES, pack
from app.engine.deal import CAPTURE, CREEP, SWEEP, Deal, Move, MoveResult
from app.engine.errors import DealOver, MoveError, NotInHand, RulesError, SetupError
from app.engine.rules import RuleSet

STANDARD = RuleSet()


def position(hands, table, stock=(), *, rules=STANDARD, dealer=0, to_move=None, **kw) -> Deal:
    return Deal.from_position(rules, len(hands), dealer, hands, table, stock, to_move, **kw)


def error_code(deal: Deal, card, take=()) -> str | None:
    try:
        deal.check(card, take)
    except MoveError as exc:
        return exc.code
    return None


# ------------------------------------------------------------- setup errors


@pytest.mark.parametrize(
    "hands,table,stock,match",
    [
        ([["AS"], ["XX"]], [], [], "unknown card"),
        ([["AS"], ["2S"]], ["10X"], [], "unknown card"),
        ([["AS"], ["2S"]], [], ["1H"] + ["2H"] * 7, "unknown card"),
        ([["AS"], ["AS"]], ["AS"], [], "more copies"),
        ([["AS", "2S", "3S"], ["4S"]], [], [], "hand sizes"),
        ([["AS", "2S"], ["3S"]], [], [], "hand sizes"),
        ([["AS"], ["2S"]], [], ["3S", "4S", "5S"], "packets"),
        (
            [["AS"], ["2S"]],
            [],
            ["3S"] * 2 + ["4S"] * 2 + ["5S"] * 2 + ["6S"] * 2 + ["7S"] * 2,
            "packets",
        ),
    ],
)
def test_impossible_positions_are_setup_errors(hands, table, stock, match):
    """FORMAT.md exit 2: unknown code, too many copies, unequal hands, undealable stock."""
    with pytest.raises(SetupError, match=match):
        position(hands, table, stock)


def test_a_single_pack_holds_no_twins():
    """V2: one pack, so a second copy of a card is an error."""
    with pytest.raises(SetupError, match="more copies"):
        position([["AS"], ["AS"]], [], rules=RuleSet(single_pack=True))
    position([["AS"], ["AS"]], [])  # two packs: fine


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"dealer": 2}, "dealer"),
        ({"dealer": -1}, "dealer"),
        ({"dealer": True}, "dealer"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": "1"}, "to_move"),
        ({"last_capturer": 5}, "last_capturer"),
    ],
)
def test_seat_numbers_outside_the_table_are_setup_errors(kw, match):
    with pytest.raises(SetupError, match=match):
        position([["AS"], ["2S"]], [], **kw)


def test_hands_must_list_one_hand_per_seat():
    with pytest.raises(SetupError, match="hands"):
        Deal.from_position(STANDARD, 3, 0, [["AS"], ["2S"]], [])
    with pytest.raises(SetupError, match="hand"):
        Deal.from_position(STANDARD, 2, 0, [["AS"], "2S"], [])
    with pytest.raises(SetupError, match="table"):
        Deal.from_position(STANDARD, 2, 0, [["AS"], ["2S"]], "3S")


def test_rule_sets_a_position_cannot_play_are_rules_errors():
    """FORMAT.md: V1 needs 4 players, V2 exactly 2, V7 at most 4 (exit 2)."""
    with pytest.raises(RulesError):
        position([["AS"], ["2S"]], [], rules=RuleSet(partnership=True))
    with pytest.raises(RulesError):
        position([["AS"]] * 3, [], rules=RuleSet(single_pack=True))
    with pytest.raises(RulesError):
        position([["AS"]] * 5, [], rules=RuleSet(four_card_deal=True))


def test_hands_may_differ_by_one_clockwise_from_the_player_to_move():
    """FORMAT.md: sizes never increase clockwise from to_move and differ by at most one."""
    deal = position([["AS"], ["2S", "3S"], ["4S", "5S"]], [], to_move=1)
    assert deal.to_move == 1
    with pytest.raises(SetupError):
        position([["AS"], ["2S", "3S"], ["4S", "5S"]], [], to_move=0)


@pytest.mark.parametrize(
    "bad_pack,match",
    [
        (pack(2)[:-1], "pack"),
        (pack(2)[:-1] + ["AS"], "pack"),
        (pack(2)[:-1] + ["ZZ"], "pack"),
        (pack(2)[:-1] + [["AS"]], "pack"),
        (pack(1), "pack"),
    ],
)
def test_from_pack_needs_a_complete_pack(bad_pack, match):
    """R1.1: 104 cards, each code twice."""
    with pytest.raises(SetupError, match=match):
        Deal.from_pack(STANDARD, 4, 0, bad_pack)


def test_from_pack_rejects_a_dealer_outside_the_table():
    with pytest.raises(SetupError):
        Deal.from_pack(STANDARD, 4, 4, pack(2))


# -------------------------------------------------------------- move errors


def test_a_card_not_in_hand_is_not_in_hand():
    """FORMAT.md not_in_hand, also for codes that are no card at all."""
    deal = position([["4H"], ["9D", "4C"]], ["2H", "7S"])
    assert error_code(deal, "4H") == "not_in_hand"  # the other seat's card
    assert error_code(deal, "ZZ") == "not_in_hand"
    with pytest.raises(NotInHand):
        deal.apply("KS")


def test_taking_a_card_that_is_not_on_the_table_is_an_invalid_capture():
    """FORMAT.md invalid_capture: a taken card is not on the table."""
    deal = position([["4H"], ["9D", "4C"]], ["2H", "7S"])
    assert error_code(deal, "9D", ["2H", "7H"]) == "invalid_capture"
    assert error_code(deal, "9D", ["2H", "7S", "7S"]) == "invalid_capture"
    assert error_code(deal, "9D", ["2H", "XX"]) == "invalid_capture"


def test_a_take_that_does_not_split_into_groups_is_an_invalid_capture():
    """R3.2, FORMAT.md invalid_capture: the take must split into groups of the value."""
    deal = position([["4H"], ["8D", "4C"]], ["2H", "7S", "5C", "3C"])
    assert error_code(deal, "8D", ["2H", "7S"]) == "invalid_capture"  # 9, not 8
    assert error_code(deal, "8D", ["5C", "3C", "2H"]) == "invalid_capture"


def test_creeping_a_card_that_can_capture_is_must_capture():
    """R3.3, FORMAT.md must_capture: the card can capture but the take is empty."""
    deal = position([["4H"], ["8D", "4C"]], ["5C", "3C", "9S"])
    assert error_code(deal, "8D") == "must_capture"
    assert error_code(deal, "4C") is None  # another card may creep (R3.5)


def test_leaving_a_group_behind_is_not_maximal():
    """R3.3, FORMAT.md not_maximal: another group could still be formed."""
    deal = position([["4H"], ["8D", "4C"]], ["AH", "2H", "6H", "7H", "8H", "9H"])
    assert error_code(deal, "8D", ["8H"]) == "not_maximal"
    assert error_code(deal, "8D", ["8H", "AH", "7H"]) == "not_maximal"
    assert error_code(deal, "8D", ["8H", "AH", "7H", "2H", "6H"]) is None


def test_not_sweeping_when_a_sweep_is_possible_is_must_sweep():
    """R4.1, FORMAT.md must_sweep."""
    deal = position([["4H", "5D"], ["9D", "4C", "7D"]], ["2H", "7S", "5C"])
    # 7D takes 7S and 2H+5C, the whole table: only that sweep is legal
    assert error_code(deal, "7D", ["7S", "2H", "5C"]) is None
    assert error_code(deal, "9D", ["2H", "7S"]) == "must_sweep"
    deal = position([["4H", "5D"], ["9D", "4C", "2D"]], ["2H", "7S"])
    assert error_code(deal, "4C") == "must_sweep"  # E1
    assert error_code(deal, "2D", ["2H"]) == "must_sweep"


def test_several_sweeping_cards_may_be_chosen_freely():
    """R4.1: among several sweeping cards the player may choose any."""
    deal = position([["4H", "5D"], ["9D", "9C", "4C"]], ["2H", "7S"])
    assert {m.card for m in deal.legal_moves()} == {"9D", "9C"}


def test_any_move_after_the_end_is_deal_over():
    """FORMAT.md deal_over."""
    deal = position([["4H"], ["9D"]], ["2H", "7S"])
    deal.apply("9D", ["2H", "7S"])
    deal.apply("4H")
    assert deal.is_over
    assert error_code(deal, "4H") == "deal_over"
    with pytest.raises(DealOver):
        deal.apply("9D")
    assert deal.legal_moves() == []


class TestPrecedence:
    """FORMAT.md: not_in_hand, invalid_capture, must_capture (this card), not_maximal,
    must_sweep, must_capture (V6): the first failing check names the error."""

    def test_not_in_hand_before_invalid_capture(self):
        deal = position([["4H"], ["9D"]], ["2H", "7S"])
        assert error_code(deal, "3C", ["KS"]) == "not_in_hand"

    def test_invalid_capture_before_must_capture(self):
        deal = position([["4H"], ["8D", "4C"]], ["5C", "3C", "9S"])
        assert error_code(deal, "8D", ["9S"]) == "invalid_capture"
        assert error_code(deal, "8D", ["QS"]) == "invalid_capture"

    def test_must_capture_before_must_sweep(self):
        """A card that could sweep but creeps gets must_capture."""
        deal = position([["4H"], ["9D", "4C"]], ["2H", "7S"])
        assert error_code(deal, "9D") == "must_capture"

    def test_not_maximal_before_must_sweep(self):
        deal = position([["4H", "5D"], ["9D", "8C"]], ["AH", "7H", "8H"])
        # the 8C sweeps (8, A+7), so a sweep is forced; 8H alone leaves A+7 behind
        assert error_code(deal, "8C", ["8H"]) == "not_maximal"
        assert error_code(deal, "9D", ["AH", "8H"]) == "must_sweep"

    def test_must_sweep_before_strict_must_capture(self):
        rules = RuleSet(strict_capture=True)
        deal = position([["4H"], ["9D", "4C"]], ["2H", "7S"], rules=rules)
        assert error_code(deal, "4C") == "must_sweep"

    def test_strict_capture_comes_last(self):
        """V6: creeping while another card could capture."""
        rules = RuleSet(strict_capture=True)
        deal = position([["4H"], ["8D", "4C"]], ["5C", "3C", "9S"], rules=rules)
        assert error_code(deal, "4C") == "must_capture"
        assert {m.card for m in deal.legal_moves()} == {"8D"}
        relaxed = position([["4H"], ["8D", "4C"]], ["5C", "3C", "9S"])
        assert error_code(relaxed, "4C") is None


def test_without_forced_sweep_a_capture_may_leave_the_sweep_unmade():
    """V4: R4.1 does not apply; the played card still follows R3.3."""
    rules = RuleSet(no_forced_sweep=True)
    deal = position([["4H", "5D"], ["9D", "4C", "2D"]], ["2H", "7S"], rules=rules)
    assert error_code(deal, "4C") is None
    assert error_code(deal, "2D", ["2H"]) is None
    assert error_code(deal, "9D") == "must_capture"
    assert {(m.card, m.take) for m in deal.legal_moves()} == {
        ("4C", ()),
        ("2D", ("2H",)),
        ("9D", ("2H", "7S")),
    }


def test_an_illegal_move_changes_nothing():
    deal = position([["4H"], ["9D", "4C"]], ["2H", "7S"])
    before = (deal.state_dict(), deal.scores_list(), list(deal.results))
    for card, take in [("4C", []), ("9D", ["2H"]), ("KS", [])]:
        with pytest.raises(MoveError):
            deal.apply(card, take)
    assert (deal.state_dict(), deal.scores_list(), list(deal.results)) == before


def test_every_legal_move_passes_check_with_its_kind():
    deal = position(
        [["KD", "QD", "JD"], ["AC", "8C", "2S", "2D"]], ["2H", "3H", "4H", "5H", "8H", "10H"]
    )
    kinds = deal.legal_kinds()
    for m in deal.legal_moves():
        assert deal.check(m.card, m.take) == (1, kinds[m])
        assert deal.is_legal(m.card, reversed(m.take))


def test_take_order_does_not_matter_and_move_of_sorts_it():
    deal = position([["4H"], ["9D"]], ["2H", "7S"])
    assert Move.of("9D", ["7S", "2H"]) == Move("9D", ("2H", "7S"))
    assert deal.is_legal("9D", ["7S", "2H"])
    result = deal.apply("9D", ["7S", "2H"])
    assert isinstance(result, MoveResult) and result.taken == ("2H", "7S")


# --------------------------------------------------------- turns, sweeps


def test_play_goes_clockwise_from_the_dealers_left():
    """R1.3, R2.1, R3.1: the player left of the dealer leads, then seat + 1."""
    deal = position([["JC"], ["KC", "10C"], ["QC", "9C"]], [], dealer=0)
    assert deal.to_move == 1
    seats = []
    for card in ("KC", "QC", "JC", "10C", "9C"):
        seats.append(deal.to_move)
        assert deal.apply(card).kind == CREEP
    assert seats == [1, 2, 0, 1, 2]
    assert deal.is_over


def test_first_play_sweep_is_conceded_by_the_dealer():
    """R4.2: on the first play of a deal the preceding player is the dealer."""
    deal = position([["5H"], ["8C"], ["9C"]], ["3H", "5D"], dealer=2)
    assert deal.to_move == 0
    result = deal.apply("5H", ["5D"])  # 3H is left: a capture, not a sweep
    assert result.kind == CAPTURE
    deal = position([["8H"], ["8C"], ["9C"]], ["3H", "5D"], dealer=2)
    result = deal.apply("8H", ["3H", "5D"])
    assert result.kind == SWEEP and result.conceded_by == 2
    assert deal.scores[2].total == -5


def test_an_empty_table_cannot_be_swept():
    """R4.5: with nothing on the table the player creeps."""
    deal = position([["4H"], ["9D"]], [])
    assert deal.legal_moves() == [Move("9D", ())]


def test_partners_never_concede_to_each_other():
    """V1: the preceding player is always an opponent."""
    rules = RuleSet(partnership=True)
    hands = [["2C"], ["2D"], ["2H"], ["5S"]]
    deal = position(hands, ["3H"], rules=rules, dealer=3)
    deal.apply("2C")  # seat 0 creeps: 3H 2C
    deal.apply("2D", ["2C"])  # seat 1 takes the 2C: 3H left
    deal.apply("2H")  # seat 2 creeps: 3H 2H
    result = deal.apply("5S", ["3H", "2H"])
    assert result.kind == SWEEP and result.conceded_by == 2
    assert deal.rules.team_of(3) != deal.rules.team_of(2)


# ------------------------------------------------------------- packets


def test_a_new_packet_sets_aside_the_pictures_first():
    """R2.5: pictures now on the table are set aside (spades apart), numerals stay."""
    deal = position(
        [["QS"], ["JD"]],
        ["7C"],
        stock=["2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C"],
        opening=False,
    )
    deal.apply("JD")
    result = deal.apply("QS")
    assert result.packet_dealt
    assert deal.table == ["7C"]
    assert deal.set_aside_spades == ["QS"]
    assert deal.set_aside_other == ["JD"]
    assert deal.packets_dealt == 1
    assert deal.last_packet


def test_packets_deal_two_and_two_from_the_dealers_left():
    """R2.5: two to each clockwise from the dealer's left, then two more each."""
    stock = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2D", "3D", "4D"]
    deal = position([["AS"], ["AH"], ["AD"]], ["KD"], stock=stock, dealer=1, to_move=2)
    for card in ("AD", "AS", "AH"):
        deal.apply(card)
    assert deal.to_move == 2  # the leader, left of the dealer (R2.1)
    assert Counter(deal.hands[2]) == Counter(["2C", "3C", "8C", "9C"])
    assert Counter(deal.hands[0]) == Counter(["4C", "5C", "10C", "2D"])
    assert Counter(deal.hands[1]) == Counter(["6C", "7C", "3D", "4D"])
    assert deal.stock == []
    assert deal.last_packet


def test_the_short_packet_of_the_four_card_deal_goes_one_at_a_time():
    """V7: 4 cards for 3 players, one at a time from the dealer's left: 2/1/1.

    Play then skips the players whose hands are empty: after the seat that
    got two cards plays its second, nobody holds a card and the deal ends.
    """
    rules = RuleSet(four_card_deal=True)
    deal = position([["4H"], ["2H"], ["3H"]], ["9C", "10C"], ["5S", "6S", "7S", "8S"], rules=rules)
    for card in ("2H", "3H", "4H"):
        deal.apply(card)
    assert [sorted(h) for h in deal.hands] == [["7S"], ["5S", "8S"], ["6S"]]
    assert deal.apply("5S", ["2H", "3H"]).kind == CAPTURE
    deal.apply("6S")
    deal.apply("7S")
    assert deal.to_move == 1
    deal.apply("8S")
    assert deal.is_over


def test_the_short_packet_may_be_any_size_and_nobody_plays_out_of_turn():
    """V7: the remaining cards one at a time; hands empty first are skipped."""
    rules = RuleSet(four_card_deal=True)
    deal = position([["4H"], ["2H"], ["3H"]], ["9C"], ["5S", "6S", "7S", "8S", "10S"], rules=rules)
    for card in ("2H", "3H", "4H"):
        deal.apply(card)
    assert [len(h) for h in deal.hands] == [1, 2, 2]
    order = []
    while not deal.is_over:
        order.append(deal.to_move)
        m = deal.legal_moves()[0]
        deal.apply(m.card, m.take)
    assert order == [1, 2, 0, 1, 2]


@pytest.mark.parametrize("players,short", [(2, 4), (3, 4), (4, 4)])
def test_four_card_deal_uses_every_card_with_a_short_last_packet(players, short):
    """V7: 4 each and 4 on the table; full packets first, then the short one."""
    rules = RuleSet(four_card_deal=True)
    deal = Deal.from_pack(rules, players, 0, pack())
    assert all(len(h) == 4 for h in deal.opening.hands)
    assert len(deal.opening.table) == 4
    assert len(deal.opening.stock) % (4 * players) == short
    played = 0
    while not deal.is_over:
        m = deal.legal_moves()[0]
        deal.apply(m.card, m.take)
        played += 1
    assert played == 104 - 4


# -------------------------------------------------------------- end award


def test_the_last_capturer_takes_the_table_and_the_spade_pictures():
    """R5.1, R5.2: the award is not a sweep; non-spade pictures score for nobody."""
    deal = position([["4C"], ["3D"]], ["3H", "9S", "KS", "QD"])
    deal.apply("3D", ["3H"])
    result = deal.apply("4C")
    assert deal.is_over
    assert result.kind == CREEP
    assert deal.award is not None and deal.award.seat == 1
    assert sorted(deal.award.cards) == sorted(["4C", "9S", "KS"])
    assert deal.scores[1].card_points == 2  # 9S + KS
    assert deal.scores[1].sweeps == 0
    assert deal.set_aside_other == ["QD"]
    assert deal.state_dict()["table"] == [] and deal.state_dict()["set_aside_spades"] == []


def test_nobody_captured_then_the_last_player_takes_the_award():
    """R5.3: the player who played the last card (the dealer) receives it."""
    deal = position([["4C"], ["3D"]], ["9S", "KS"])
    deal.apply("3D")
    deal.apply("4C")
    assert deal.award is not None and deal.award.seat == 0
    assert deal.last_capturer is None
    assert deal.scores[0].card_points == 2


def test_a_sweep_with_the_very_last_card_still_counts():
    """R5.2: a real sweep made by the last card counts as a sweep."""
    deal = position([["5C"], ["3D"]], ["2H"])
    deal.apply("3D")
    result = deal.apply("5C", ["2H", "3D"])
    assert result.kind == SWEEP
    assert deal.is_over and deal.award is not None and deal.award.cards == ()
    assert deal.scores[0].sweeps == 1 and deal.scores[1].sweeps_conceded == 1


# ------------------------------------------------------------- dealing order


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_from_pack_deals_first_batch_then_table_then_second_batch(players):
    """R2.2, R2.3: batches clockwise from the dealer's left, the table in between."""
    dealer = players - 1
    cards = pack()
    deal = Deal.from_pack(STANDARD, players, dealer, cards)
    (first, second), table_n = STANDARD.opening_counts(players)
    order = [(dealer + 1 + i) % players for i in range(players)]
    pos = 0
    expected = {seat: [] for seat in order}
    for seat in order:
        expected[seat] += cards[pos : pos + first]
        pos += first
    table = cards[pos : pos + table_n]
    pos += table_n
    for seat in order:
        expected[seat] += cards[pos : pos + second]
        pos += second
    assert deal.opening.hands == [expected[s] for s in range(players)]
    assert deal.opening.table == table
    assert deal.opening.stock == cards[pos:]
    assert len(cards[pos:]) % (4 * players) == 0  # R2.6
    assert deal.to_move == order[0]


@pytest.mark.parametrize(
    "players,hand,table", [(2, 6, 4), (3, 5, 5), (4, 5, 4), (5, 4, 4), (6, 5, 2)]
)
def test_opening_hand_and_table_sizes(players, hand, table):
    """R2.2: 2 -> 6/4, 3 -> 5/5, 4 -> 5/4, 5 -> 4/4, 6 -> 5/2."""
    deal = Deal.from_pack(STANDARD, players, 0, pack())
    assert all(len(h) == hand for h in deal.opening.hands)
    assert len(deal.opening.table) == table


def test_opening_pictures_are_set_aside_and_are_no_sweep():
    """R2.4: J Q K leave the opening table, spade pictures on their own pile."""
    deal = position([["4C"], ["3D"]], ["JS", "QH", "7C", "KD", "KS"])
    assert deal.table == ["7C"]
    assert sorted(deal.set_aside_spades) == ["JS", "KS"]
    assert sorted(deal.set_aside_other) == ["KD", "QH"]
    assert all(s.total == 0 for s in deal.scores)


def test_a_single_pack_deal_has_four_and_four_then_packets_of_four():
    """V2: 4 cards each and 4 on the table, a 40-card stock."""
    rules = RuleSet(single_pack=True)
    deal = Deal.from_pack(rules, 2, 0, pack(1))
    assert [len(h) for h in deal.opening.hands] == [4, 4]
    assert len(deal.opening.table) == 4 and len(deal.opening.stock) == 40


# -------------------------------------------------------------- bordstabbe


def test_bordstabbe_costs_the_first_player_five():
    """V5: a cleaned opening table of 2+ cards of one value: first player -5."""
    rules = RuleSet(bordstabbe=True)
    deal = position([["4D"], ["2C"]], ["7H", "7S", "KD"], rules=rules, dealer=0)
    assert deal.bordstabbe_seat == 1
    assert deal.scores[1].total == -5 and deal.scores[0].total == 0
    assert deal.scores_list()[1]["bordstabbe"] == -5


@pytest.mark.parametrize("table", [["7H"], ["7H", "8H"], ["KD", "KS"], [], ["7H", "KD"]])
def test_no_bordstabbe_without_two_cards_of_one_value(table):
    """V5: at least two cards, all of one value, after the pictures left."""
    deal = position([["4D"], ["2C"]], table, rules=RuleSet(bordstabbe=True))
    assert deal.bordstabbe_seat is None
    assert all(s.total == 0 for s in deal.scores)


def test_no_bordstabbe_under_the_standard_rules():
    deal = position([["4D"], ["2C"]], ["7H", "7S"])
    assert deal.bordstabbe_seat is None


def test_aces_on_the_table_make_a_bordstabbe_too():
    """V5: 'of one value': two table aces are both worth 1."""
    deal = position([["4D"], ["2C"]], ["AH", "AC"], rules=RuleSet(bordstabbe=True), dealer=1)
    assert deal.bordstabbe_seat == 0


# ------------------------------------------------------------------ output


def test_state_dict_lists_are_sorted_and_the_stock_is_a_count():
    """FORMAT.md state: sorted lists, stock_count, last_packet."""
    deal = position(
        [["KC", "2H"], ["10D", "AS"]],
        ["5H", "3C"],
        stock=["4C"] * 2 + ["6C"] * 2 + ["7C"] * 2 + ["8C"] * 2,
    )
    state = deal.state_dict()
    assert state["hands"] == [["2H", "KC"], ["AS", "10D"]]
    assert state["table"] == ["3C", "5H"]
    assert state["stock_count"] == 8 and state["last_packet"] is False
    assert "stock" not in state


def test_total_points_counts_every_card_of_the_deal():
    deal = Deal.from_pack(STANDARD, 4, 0, pack())
    assert deal.total_points() == 42
    assert Deal.from_pack(RuleSet(nordic=True), 4, 0, pack()).total_points() == 36
    assert Deal.from_pack(RuleSet(single_pack=True), 2, 0, pack(1)).total_points() == 21


def test_hands_are_kept_in_canonical_order():
    """Legal moves come out in card order; the opening keeps the dealt order."""
    deal = position([["KC", "2H", "AS"], ["10D", "AH", "3C"]], [], dealer=1)
    assert deal.hands[0] == ["AS", "2H", "KC"]
    assert deal.opening.hands[0] == ["KC", "2H", "AS"]
    assert [m.card for m in deal.legal_moves()] == ["AS", "2H", "KC"]


def test_move_results_are_immutable_and_serialise():
    deal = position([["4H"], ["9D"]], ["2H", "7S"])
    result = deal.apply("9D", ["2H", "7S"])
    assert result.to_dict() == {"seat": 1, "card": "9D", "kind": "sweep", "taken": ["2H", "7S"]}
    with pytest.raises(AttributeError):
        result.kind = "creep"  # type: ignore[misc]
    assert deal.moves == [Move("9D", ("2H", "7S"))]


def test_all_codes_can_be_used_in_a_position():
    hands = [list(ALL_CODES[:26]), list(ALL_CODES[26:])]
    deal = position(hands, [])
    assert len(deal.legal_moves()) == 26


# ------------------------------------------------- R4.2, R4.4, V9 (fixed examples)


def test_after_a_packet_the_sweep_is_charged_to_the_seat_before_the_sweeper():
    """R4.2: a position that starts away from the leader; the last card before the
    packet is the leader's own, and the leader's sweep is still charged to the seat
    before it, never to the sweeper."""
    deal = Deal.from_position(
        RuleSet(),
        2,
        1,
        [["2C"], ["3C"]],
        ["4H"],
        ["9D", "5S", "7D", "7H", "6C", "8C", "10C", "5D"],
        1,
    )
    deal.apply("3C")
    deal.apply("2C")
    assert deal.to_move == 0 and deal.last_player == 0
    result = deal.apply("9D", ["2C", "3C", "4H"])
    assert result.kind == SWEEP and result.conceded_by == 1
    assert deal.scores[0].sweeps_conceded == 0 and deal.scores[1].sweeps_conceded == 1


def test_a_double_sweep_leaves_two_face_up_markers():
    """R4.4: two cards mark a double sweep, one an ordinary sweep."""
    deal = Deal.from_position(RuleSet(), 2, 1, [["3D", "5D"], ["5C", "4C"]], ["3D"], [], 0)
    deal.apply("3D", ["3D"])
    assert deal.sweep_markers[0] == ["3D", "3D"]
    deal.apply("4C")
    deal.apply("5D")
    assert deal.apply("5C", ["5D"]).kind == CAPTURE  # the 4C stays: no sweep, no marker
    assert deal.sweep_markers == [["3D", "3D"], []]


def test_picture_pairs_keep_the_opening_pictures_on_the_table():
    """V9: R2.4 does not apply; V5 then sees the pictures too."""
    rules = RuleSet(picture_pairs=True, bordstabbe=True)
    deal = Deal.from_position(rules, 2, 1, [["2C"], ["3C"]], ["KS", "KD"])
    assert sorted(deal.table) == ["KD", "KS"] and not deal.set_aside_spades
    assert deal.scores[0].bordstabbe == -5  # two kings: one value (V5)
    standard = Deal.from_position(RuleSet(bordstabbe=True), 2, 1, [["2C"], ["3C"]], ["KS", "KD"])
    assert standard.table == [] and standard.set_aside_spades == ["KS"]
    assert standard.scores[0].bordstabbe == 0
