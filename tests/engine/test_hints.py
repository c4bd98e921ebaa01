"""The "tabbe på 9" call (app/engine/hints.py): which values sweep a table, and when
the view carries the call.

Property tests against brute force: a value is listed exactly when a card of that
value, alone in a hand on that table, has a legal move that takes the whole table
(the engine's legal moves, and the independent reference's oracle_legal), for the
standard rules and every variant that changes sweeping (V4, V9, and both).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import ALL_CODES, RANKS, SUITS
from app.engine.deal import Deal
from app.engine.hints import sweep_call, sweep_values
from app.engine.rules import RuleSet
from app.engine.views import public_deal_view
from tests.engine import reference as ref

SWEEP_RULES = [
    RuleSet(),
    RuleSet(no_forced_sweep=True),  # V4
    RuleSet(picture_pairs=True),  # V9
    RuleSet(no_forced_sweep=True, picture_pairs=True),
]
SMALL_CODES = [c for c in ALL_CODES if c[:-1] in ("A", "2", "3", "4", "5", "6")]
"""Low cards make tables that sweep often (sums reach the hand values)."""


def _card_of(value: int, table: list[str]) -> str:
    """A card of hand ``value`` (ace 14) of which the table holds fewer than two copies."""
    rank = "A" if value == 14 else RANKS[value - 1]
    counts = Counter(table)
    return next(rank + s for s in SUITS if counts[rank + s] < 2)


def _spare(*used: list[str]) -> list[str]:
    """A card for the other seat's hand that the pack still holds."""
    counts = Counter(c for cards in used for c in cards)
    return [next(c for c in reversed(ALL_CODES) if counts[c] < 2)]


def _sweeps_by_legal_moves(table: list[str], rules: RuleSet, value: int) -> bool:
    """Brute force: a hand of one card of ``value``; is taking the whole table legal?"""
    card = _card_of(value, table)
    deal = Deal.from_position(
        rules, 2, 1, [[card], _spare(table, [card])], table, to_move=0, opening=False
    )
    whole = sorted(table)
    engine = any(sorted(m.take) == whole and table for m in deal.legal())
    oracle = any(
        sorted(take) == whole and table for _, take in ref.oracle_legal([card], table, rules)
    )
    assert engine == oracle, (table, card)
    return engine


tables = st.one_of(
    st.lists(st.sampled_from(SMALL_CODES), max_size=6),
    st.lists(st.sampled_from(ALL_CODES), max_size=5),
).filter(lambda t: max(Counter(t).values(), default=0) <= 2)


@settings(max_examples=150, deadline=None)
@given(table=tables, which=st.sampled_from(range(len(SWEEP_RULES))))
def test_a_value_is_listed_iff_a_card_of_it_takes_the_whole_table(table, which):
    rules = SWEEP_RULES[which]
    listed = sweep_values(table, rules)
    brute = [v for v in range(2, 15) if _sweeps_by_legal_moves(table, rules, v)]
    assert listed == brute


@settings(max_examples=100, deadline=None)
@given(table=tables, which=st.sampled_from(range(len(SWEEP_RULES))))
def test_the_view_carries_the_call_exactly_when_a_creep_leaves_a_sweepable_table(table, which):
    """Seat 0 creeps a card that takes nothing; the view's ``sweep_call`` is set exactly
    when some value sweeps the table it leaves, with the values of brute force."""
    rules = SWEEP_RULES[which]
    hand = [c for c in ("KS", "KH", "QS", "QH") if Counter(table)[c] < 2]
    deal = Deal.from_position(
        rules, 2, 1, [hand[:1], _spare(table, hand[:1])], table, to_move=0, opening=False
    )
    creeps = [m for m in deal.legal() if m.kind == "creep"]
    if not creeps:
        return  # the king takes something here: not this property's case
    deal.apply(creeps[0].card, [])
    after = list(deal.table)
    brute = [v for v in range(2, 15) if _sweeps_by_legal_moves(after, rules, v)]
    call = public_deal_view(deal)["sweep_call"]
    if brute:
        assert call == {"seat": 0, "values": brute, "after": "creep"}
    else:
        assert call is None


def test_tabbe_pa_9():
    """seeds/002: a 5 and a 4 on the table: "tabbe på 9"."""
    assert sweep_values(["5H", "4C"], RuleSet()) == [9]
    assert sweep_values([], RuleSet()) == []  # R4.5
    assert sweep_values(["AH"], RuleSet()) == []  # a lone table ace (R1.4)
    assert sweep_values(["10H", "4C"], RuleSet()) == [14]  # an ace from hand counts 14
    assert sweep_values(["3H", "3C"], RuleSet()) == [3, 6]


def test_picture_pairs_and_no_forced_sweep():
    """V9: a table with a picture is swept only by its rank; V4 does not change the values
    (a sweep is optional there, not impossible)."""
    pairs = RuleSet(picture_pairs=True)
    assert sweep_values(["JH", "3C"], RuleSet()) == [14]  # J + 3 = 14
    assert sweep_values(["JH", "3C"], pairs) == []
    assert sweep_values(["JH", "JC"], pairs) == [11]
    assert sweep_values(["JH", "JC"], RuleSet()) == [11]
    table = ["AH", "5D", "2C", "4S", "3H", "3D"]  # 6: 1+5, 2+4, 3+3, or 1+2+3 alone
    assert sweep_values(table, RuleSet(no_forced_sweep=True)) == sweep_values(table, RuleSet())
    v4 = Deal.from_position(
        RuleSet(no_forced_sweep=True), 2, 1, [["6C"], ["2H"]], table, to_move=0, opening=False
    )
    assert len(v4.legal()) > 1  # under V4 the sweep is one choice among others
    assert 6 in sweep_values(table, RuleSet())


def test_the_dealer_calls_after_the_pictures_are_set_aside():
    """E7: the dealer's 4 creeps onto 6, 10, J, K; the packet's clean-up leaves 6 10 4:
    "tabbe på 10", said by the dealer (R2.5)."""
    stock = ["2C", "3C", "5C", "7C", "8C", "9C", "2D", "3D"]
    deal = Deal.from_position(
        RuleSet(), 2, 1, [[], ["4C"]], ["6H", "10S", "JD", "KC"], stock, to_move=1, opening=False
    )
    deal.apply("4C", [])
    assert sorted(deal.table) == sorted(["6H", "10S", "4C"])
    assert sweep_call(deal) == {"seat": 1, "values": [10], "after": "set_aside"}


def test_the_opening_table_is_called_by_the_dealer():
    """R2.4: the opening table, its pictures set aside, is the dealer's to call."""
    deal = Deal.from_position(RuleSet(), 2, 0, [["9C"], ["8D"]], ["4H", "5S", "KD"], to_move=1)
    assert deal.table == ["4H", "5S"] or sorted(deal.table) == ["4H", "5S"]
    assert sweep_call(deal) == {"seat": 0, "values": [9], "after": "set_aside"}


def test_no_call_after_a_capture_or_at_the_end():
    deal = Deal.from_position(
        RuleSet(), 2, 1, [["9C", "2C"], ["8D", "3S"]], ["9H", "5S", "3D"], to_move=0, opening=False
    )
    deal.apply("9C", ["9H"])  # leaves 5 + 3: sweepable by 8, but a capture is not called
    assert sweep_values(deal.table, deal.rules) == [8]
    assert sweep_call(deal) is None
    assert public_deal_view(deal)["sweep_call"] is None
