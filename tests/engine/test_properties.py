"""Properties of whole random deals, for 2..6 players and every valid rule set.

Compared with tests/engine/reference.py, an independent brute-force reading
of the rules: the legal moves of a position, the error code of a bad move,
the kind of a play, and the card points a pack holds.  Checked at the end
of every deal: all cards conserved (R1.1, R2.6, R5.1) and the scores adding
up to the pack's points (R6.3; V2, V3, V5).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.cards import ALL_CODES, pack
from app.engine.deal import Deal, Move
from app.engine.errors import MoveError
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.simulation import check_invariants, play_random, random_deal, simulate
from tests.engine import reference as ref

FREE_OPTIONS = ["nordic", "no_forced_sweep", "bordstabbe", "strict_capture", "picture_pairs"]
ORACLE_TABLE_LIMIT = 9
"""Positions with bigger tables skip the full brute-force enumeration (too slow)."""


def all_valid_setups() -> list[tuple[int, RuleSet]]:
    """Every player count with every combination of options it can play (R7)."""
    out = []
    for players in range(2, 7):
        bound = (
            (["partnership"] if players == 4 else [])
            + (["single_pack"] if players == 2 else [])
            + (["four_card_deal"] if players <= 4 else [])
        )
        names = FREE_OPTIONS + bound
        for values in itertools.product([False, True], repeat=len(names)):
            out.append((players, RuleSet(**dict(zip(names, values, strict=True)))))
    return out


@st.composite
def setups(draw) -> tuple[int, RuleSet, int]:
    players = draw(st.integers(min_value=2, max_value=6))
    flags = {name: draw(st.booleans()) for name in FREE_OPTIONS}
    if players == 4:
        flags["partnership"] = draw(st.booleans())
    if players == 2:
        flags["single_pack"] = draw(st.booleans())
    if players <= 4:
        flags["four_card_deal"] = draw(st.booleans())
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return players, RuleSet(**flags), seed


def new_deal(players: int, rules: RuleSet, rng: random.Random) -> Deal:
    rules.validate_for(players)
    return random_deal(rules, players, rng)


def assert_deal_end_invariants(deal: Deal) -> None:
    """R1.1, R5.1: every card ends in a pile or on the non-scoring picture pile;
    R6.3 (V2, V3, V5): the deal scores add up to the pack's points."""
    assert deal.is_over
    opening = deal.opening
    start = (
        Counter(c for h in opening.hands for c in h)
        + Counter(opening.table)
        + Counter(opening.stock)
    )
    assert sum(start.values()) == (52 if deal.rules.single_pack else 104)
    assert start == Counter(pack(deal.rules.copies))
    end = Counter(c for p in deal.piles for c in p) + Counter(deal.set_aside_other)
    assert end == start
    assert not any(deal.hands) and not deal.table and not deal.stock
    assert not deal.set_aside_spades
    if deal.rules.picture_pairs:  # V9: pictures are never set aside
        assert not deal.set_aside_other
    expected = ref.pack_points(deal.rules.single_pack, deal.rules.nordic)
    if deal.rules.bordstabbe and ref.bordstabbe_fires(opening.table, deal.rules.picture_pairs):
        expected -= 5
    assert sum(deal.totals()) == expected
    for seat, pile in enumerate(deal.piles):
        assert deal.scores[seat].card_points == sum(ref.points(c, deal.rules.nordic) for c in pile)
        s = deal.scores[seat]
        assert len(deal.sweep_markers[seat]) == s.sweeps + 2 * s.double_sweeps  # R4.4
    conceded = sum(s.sweeps_conceded for s in deal.scores)
    assert conceded == sum(s.sweeps for s in deal.scores)
    check_invariants(deal)


# ------------------------------------------------------------ conservation


@pytest.mark.parametrize(
    "players,rules",
    all_valid_setups(),
    ids=lambda x: (
        str(x)
        if isinstance(x, int)
        else "+".join(k for k, v in x.to_dict().items() if v) or "standard"
    ),
)
def test_every_valid_rule_set_conserves_cards_and_points(players, rules):
    """One whole random deal per player count and valid option combination."""
    rng = random.Random(hash((players, rules)) & 0xFFFF)
    deal = new_deal(players, rules, rng)
    play_random(deal, rng)
    assert_deal_end_invariants(deal)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_random_deals_conserve_cards_and_scores_add_up(setup):
    """R1.1, R6.3: 104 cards (52 single pack) conserved; 42/36/21 (-5 bordstabbe)."""
    players, rules, seed = setup
    rng = random.Random(seed)
    deal = new_deal(players, rules, rng)
    play_random(deal, rng)
    assert_deal_end_invariants(deal)


# ------------------------------------------------------------ legal moves


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_legal_moves_are_exactly_what_the_brute_force_allows(setup):
    """R3, R4.1, V4, V6: legal_moves() equals the oracle's set, each listed once."""
    players, rules, seed = setup
    rng = random.Random(seed)
    deal = new_deal(players, rules, rng)
    while not deal.is_over:
        legal = deal.legal_moves()
        assert len(legal) == len(set(legal))
        if len(deal.table) <= ORACLE_TABLE_LIMIT and rng.random() < 0.5:
            hand = deal.hands[deal.to_move]
            got = {(m.card, tuple(sorted(m.take))) for m in legal}
            assert got == ref.oracle_legal(hand, deal.table, rules)
        m = rng.choice(legal)
        deal.apply(m.card, m.take)
    assert_deal_end_invariants(deal)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_every_legal_move_is_accepted_by_check_with_the_right_kind(setup):
    """check() accepts every listed move; creep/capture/sweep/double as R3.4, R4.2, R4.3."""
    players, rules, seed = setup
    rng = random.Random(seed)
    deal = new_deal(players, rules, rng)
    while not deal.is_over:
        seat = deal.to_move
        legal = deal.legal_moves()
        assert legal, "a player to move always has a legal move"
        for m in legal:
            assert isinstance(m, Move)
            assert m.card in deal.hands[seat]
            assert deal.check(m.card, m.take) == (seat, ref.oracle_kind(deal.table, m.card, m.take))
            assert deal.is_legal(m.card, list(reversed(m.take)))
        m = rng.choice(legal)
        result = deal.apply(m.card, m.take)
        assert result.seat == seat and result.card == m.card
    assert_deal_end_invariants(deal)


def _bad_moves(deal: Deal, rng: random.Random) -> list[tuple[str, list[str]]]:
    """Candidate moves, mostly illegal: wrong takes, creeps of capturing cards, foreign cards."""
    hand = deal.hands[deal.to_move]
    table = deal.table
    legal = deal.legal_moves()
    out = []
    for _ in range(4):
        card = rng.choice(hand)
        k = rng.randint(0, len(table))
        out.append((card, rng.sample(table, k)))  # a random subset of the table
    for m in rng.sample(legal, min(3, len(legal))):
        out.append((m.card, []))  # creep of a (maybe) capturing card
        if m.take:
            out.append((m.card, list(m.take[:-1])))  # one card short
        rest = list((Counter(table) - Counter(m.take)).elements())
        if rest:
            out.append((m.card, list(m.take) + [rng.choice(rest)]))  # one card too many
        other = [c for c in hand if c != m.card]
        if other and m.take:
            out.append((rng.choice(other), list(m.take)))  # another card's take
    foreign = [c for c in ALL_CODES if c not in hand]
    out.append((rng.choice(foreign), []))  # not in hand
    out.append((rng.choice(hand), [rng.choice(foreign)]))  # a card that is not on the table
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_moves_not_in_legal_moves_are_rejected_with_the_right_code(setup):
    """FORMAT.md codes and precedence, derived independently by the oracle."""
    players, rules, seed = setup
    rng = random.Random(seed)
    deal = new_deal(players, rules, rng)
    while not deal.is_over:
        hand = list(deal.hands[deal.to_move])
        table = list(deal.table)
        legal = {(m.card, tuple(sorted(m.take))) for m in deal.legal_moves()}
        if len(table) <= 12:
            for card, take in _bad_moves(deal, rng):
                expected = ref.oracle_code(hand, table, rules, card, take)
                assert ((card, tuple(sorted(take))) in legal) == (expected is None)
                if expected is None:
                    continue
                with pytest.raises(MoveError) as caught:
                    deal.check(card, take)
                assert caught.value.code == expected, (card, take, hand, table)
                assert not deal.is_legal(card, take)
                before = deal.state_dict()
                with pytest.raises(MoveError) as caught:
                    deal.apply(card, take)
                assert caught.value.code == expected
                assert deal.state_dict() == before
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, m.take)
    with pytest.raises(MoveError) as caught:
        deal.check(ALL_CODES[0])
    assert caught.value.code == "deal_over"


# ------------------------------------------------------------ determinism


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_same_seed_and_same_moves_give_the_same_state(setup):
    """A deal is a pure function of its pack and its moves (what persistence replays)."""
    players, rules, seed = setup
    seed_text = f"{seed:08x}"
    first = Deal.from_pack(rules, players, seed % players, shuffled_pack(seed_text, rules.copies))
    rng = random.Random(seed)
    states = []
    while not first.is_over:
        m = rng.choice(first.legal_moves())
        first.apply(m.card, m.take)
        states.append((first.state_dict(), first.scores_list()))
    again = Deal.from_pack(rules, players, seed % players, shuffled_pack(seed_text, rules.copies))
    for move, state in zip(list(first.moves), states, strict=True):
        again.apply(move.card, move.take)
        assert (again.state_dict(), again.scores_list()) == state
    assert again.results == first.results
    assert again.award == first.award
    assert again.piles == first.piles


def test_simulation_is_reproducible_and_checks_its_invariants():
    """krypkasino simulate: the same seed plays the same deals."""
    a = simulate(4, 5, seed=11)
    b = simulate(4, 5, seed=11)
    assert a.deals == b.deals == 5
    assert a.moves == b.moves == 5 * 100


def test_random_play_is_uniform_over_the_distinct_legal_moves():
    """play_random draws every distinct legal move of a position alike."""
    table = ["2H", "3H", "4H", "5H", "8H", "10H"]
    counts: Counter = Counter()
    rng = random.Random(3)
    for _ in range(3000):
        deal = Deal.from_position(RuleSet(), 2, 0, [["KC"], ["AC"]], table)
        play_random(deal, rng)
        counts[deal.moves[0]] += 1
    assert len(counts) == 3  # E6: three legal captures
    assert all(800 < n < 1200 for n in counts.values()), counts


def test_the_invariant_check_catches_lost_cards_and_wrong_scores():
    """The simulation's own check fails loudly on a broken deal."""
    from app.simulation import InvariantError

    rng = random.Random(5)
    deal = new_deal(4, RuleSet(), rng)
    with pytest.raises(InvariantError, match="not over"):
        check_invariants(deal)
    play_random(deal, rng)
    check_invariants(deal)
    pile = next(p for p in deal.piles if p)
    lost = pile.pop()
    with pytest.raises(InvariantError, match="conserved"):
        check_invariants(deal)
    pile.append(lost)
    deal.scores[0].card_points += 1
    with pytest.raises(InvariantError, match="add up"):
        check_invariants(deal)


# ------------------------------------------- fixed examples of found bug classes
#
# Each bug class the properties above found at random gets a fixed example
# here, so that it is caught on every run, whatever the seed.


def _mid_deal(hands: list[list[str]], table: list[str], rules: RuleSet | None = None) -> Deal:
    """A position in the middle of a deal (crept pictures stay on the table)."""
    return Deal.resume(rules or RuleSet(), len(hands), len(hands) - 1, hands, table, [], 0)


@pytest.mark.parametrize(
    "table,card,expected",
    [
        # one kind of group (2+3) three times over, and a 9 that no group uses
        (["2S", "2H", "2D", "3S", "3H", "3D", "9C"], "5C", ["2S", "2H", "2D", "3S", "3H", "3D"]),
        # a lone 4 three times, with a card of a higher value left behind
        (["4S", "4H", "4D", "8C"], "4C", ["4S", "4H", "4D"]),
        # 1+6 four times over (aces count 1 on the table, R1.4)
        (
            ["AS", "AH", "AD", "AC", "6S", "6H", "6D", "6C", "10D"],
            "7C",
            ["AS", "AH", "AD", "AC", "6S", "6H", "6D", "6C"],
        ),
    ],
)
def test_a_lone_group_is_taken_as_often_as_it_fits(table, card, expected):
    """R3.3 bug class: a maximal capture took the only kind of group twice, not every time."""
    deal = _mid_deal([[card, "KH"], ["KD"]], table)
    takes = [sorted(m.take, key=ALL_CODES.index) for m in deal.legal_moves() if m.card == card]
    assert takes == [sorted(expected, key=ALL_CODES.index)]


def test_a_capture_plan_shared_with_a_smaller_table_is_no_sweep():
    """R4.1 bug class: the plan of 3+4 (shared by every table alike below 7) was taken
    for a sweep although a king lies on the table too: the 7 only captures, and
    the 2 may still creep (no forced sweep)."""
    deal = _mid_deal([["7C", "2C"], ["9D"]], ["3H", "4H", "KD"])
    kinds = {(m.card, m.take): k for m, k in deal.legal_kinds().items()}
    assert kinds == {("7C", ("3H", "4H")): "capture", ("2C", ()): "creep"}
    same_values = _mid_deal([["7C", "2C"], ["9D"]], ["3H", "4H"])
    assert {m: k for m, k in same_values.legal_kinds().items()} == {
        Move("7C", ("3H", "4H")): "sweep"
    }


def test_the_forced_sweep_of_a_crowded_table_names_only_sweepers():
    """R4.1 bug class, crowded table (the quick sweep search): only the sweeping card plays."""
    table = ["AS", "9S", "2S", "8S", "3S", "7S", "4S", "6S", "5S", "5H"]  # 50: only 10 sweeps
    deal = _mid_deal([["10C", "6C", "5C"], ["9D", "9H", "8D"]], table)
    assert deal.legal_moves() == [Move("10C", tuple(sorted(table, key=ALL_CODES.index)))]
    assert set(deal.legal_kinds().values()) == {"sweep"}
    free = _mid_deal(
        [["10C", "6C", "5C"], ["9D", "9H", "8D"]], table, RuleSet(no_forced_sweep=True)
    )
    assert Move("6C", ()) not in free.legal_moves()  # 6 = 6 = 1+5 = ...: must capture (R3.3)
    assert any(m.card == "5C" and len(m.take) < len(table) for m in free.legal_moves())


def test_property_tests_use_fixed_examples_exactly_under_ci():
    """tests/conftest.py: the "ci" profile (derandomized) under CI=true, random locally."""
    import os

    from hypothesis import settings as current

    from tests.conftest import IN_CI

    if os.environ.get("HYPOTHESIS_PROFILE"):
        pytest.skip("a profile was chosen explicitly")
    assert current.default.derandomize is IN_CI
