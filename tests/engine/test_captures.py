"""Capture search (RULES.md R3.2, R3.3, R4.1), checked against a brute force.

The reference enumerates every subset of the table's card *indices*, keeps
those that split exactly into groups of the played value and leave no group
behind, and compares them with ``maximal_takes`` (value counts) and
``expand_takes`` (distinct multisets of card codes).  It shares no code with
the engine's search: subset sums and partitions are computed on bitmasks.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import captures
from app.engine.captures import can_sweep, maximal_takes, splits_into_groups
from app.engine.cards import ALL_CODES, table_value
from app.engine.counts import has_group, pack_counts, table_counts, unpack_counts
from app.engine.expansion import expand_takes

# ------------------------------------------------------------------ reference


class Reference:
    """Brute force over the 2^n subsets of a table of n cards."""

    def __init__(self, table: list[str], value: int) -> None:
        self.table = table
        self.value = value
        n = len(table)
        self.full = (1 << n) - 1
        values = [table_value(c) for c in table]
        sums = [0] * (1 << n)
        for mask in range(1, 1 << n):
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        self.groups = [m for m in range(1, 1 << n) if sums[m] == value]
        # contains[m]: some sub-subset of m is a group (R3.2)
        contains = [False] * (1 << n)
        for mask in range(1, 1 << n):
            contains[mask] = sums[mask] == value or any(
                contains[mask ^ (1 << i)] for i in range(n) if mask >> i & 1
            )
        self.contains = contains
        # splits[m]: m is a union of disjoint groups
        splits = [False] * (1 << n)
        splits[0] = True
        for mask in range(1, 1 << n):
            low = mask & -mask
            splits[mask] = any(g & low and g & mask == g and splits[mask ^ g] for g in self.groups)
        self.splits = splits

    def maximal_masks(self) -> list[int]:
        return [
            m
            for m in range(1, self.full + 1)
            if self.splits[m] and not self.contains[self.full ^ m]
        ]

    def takes_as_codes(self) -> set[tuple[str, ...]]:
        return {
            tuple(sorted(self.table[i] for i in range(len(self.table)) if m >> i & 1))
            for m in self.maximal_masks()
        }

    def takes_as_counts(self) -> set[int]:
        return {
            table_counts([self.table[i] for i in range(len(self.table)) if m >> i & 1])
            for m in self.maximal_masks()
        }


def double_pack_tables(max_size: int, ranks: str | None = None) -> st.SearchStrategy[list[str]]:
    """Tables drawn from two packs (at most two of each code), pictures included."""
    codes = [c for c in ALL_CODES if ranks is None or c[:-1] in ranks.split()]
    return st.lists(st.sampled_from(codes), max_size=max_size).filter(
        lambda t: all(t.count(c) <= 2 for c in set(t))
    )


HAND_VALUES = st.integers(min_value=2, max_value=14)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=double_pack_tables(12), value=HAND_VALUES)
def test_maximal_takes_match_the_brute_force_over_card_subsets(table, value):
    """R3.3: every maximal collection of disjoint groups, nothing else."""
    ref = Reference(table, value)
    counts = table_counts(table)
    takes = maximal_takes(counts, value)
    assert set(takes) == ref.takes_as_counts()
    codes = {tuple(sorted(c)) for t in takes for c in expand_takes(table, t)}
    assert codes == ref.takes_as_codes()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=double_pack_tables(12, "A 2 3 4 5"), value=HAND_VALUES)
def test_maximal_takes_on_crowded_low_tables_match_the_brute_force(table, value):
    """R3.3 on the hardest tables: many small cards, many overlapping groups."""
    ref = Reference(table, value)
    takes = maximal_takes(table_counts(table), value)
    assert set(takes) == ref.takes_as_counts()
    codes = {tuple(sorted(c)) for t in takes for c in expand_takes(table, t)}
    assert codes == ref.takes_as_codes()


@settings(max_examples=150, deadline=None)
@given(table=double_pack_tables(10), value=HAND_VALUES)
def test_group_sweep_and_split_predicates_match_the_brute_force(table, value):
    """R3.2 (has_group), R4.1 (can_sweep), R3.3 (splits_into_groups)."""
    ref = Reference(table, value)
    counts = table_counts(table)
    assert has_group(counts, value) == bool(ref.groups)
    assert can_sweep(table, value) == (bool(table) and ref.splits[ref.full])
    assert splits_into_groups(counts, value) == (bool(table) and ref.splits[ref.full])


@settings(max_examples=100, deadline=None)
@given(table=double_pack_tables(10), value=HAND_VALUES)
def test_expanded_takes_are_distinct_sorted_and_made_of_table_cards(table, value):
    """Twins are indistinguishable (R1.1): each multiset of codes is listed once."""
    for taken in maximal_takes(table_counts(table), value):
        expanded = expand_takes(table, taken)
        assert len(expanded) == len(set(expanded))
        for codes in expanded:
            assert list(codes) == sorted(codes, key=ALL_CODES.index)
            assert table_counts(codes) == taken
            for c in set(codes):
                assert codes.count(c) <= table.count(c)


def test_a_lone_table_ace_is_never_a_group_for_a_played_ace():
    """R1.4, E3: an ace from hand (14) cannot take an ace on the table (1)."""
    assert maximal_takes(table_counts(["AD"]), 14) == frozenset()
    assert not can_sweep(["AD"], 14)


def test_table_aces_count_one_inside_sums():
    """R1.4: ace + 8 on the table is taken by a 9."""
    assert maximal_takes(table_counts(["AH", "8C"]), 9) == {table_counts(["AH", "8C"])}


def test_the_example_of_r3_3_with_an_eight():
    """R3.3 / E5: table A 2 6 7 8 9, an 8 takes 8, A+7 and 2+6."""
    table = ["AH", "2H", "6H", "7H", "8H", "9H"]
    assert maximal_takes(table_counts(table), 8) == {table_counts(["AH", "2H", "6H", "7H", "8H"])}


def test_the_example_of_r3_3_with_an_ace():
    """R3.3 / E6: 10+4, 8+4+2 and 5+4+3+2 all need the single 4: three takes."""
    table = ["2H", "3H", "4H", "5H", "8H", "10H"]
    assert maximal_takes(table_counts(table), 14) == {
        table_counts(["10H", "4H"]),
        table_counts(["8H", "4H", "2H"]),
        table_counts(["5H", "4H", "3H", "2H"]),
    }


def test_no_group_means_no_take_and_an_empty_table_cannot_be_swept():
    """R3.4 (creep) and R4.5 (an empty table cannot be swept)."""
    assert maximal_takes(table_counts(["9C", "10C"]), 5) == frozenset()
    assert maximal_takes(0, 7) == frozenset()
    assert not can_sweep([], 7)
    assert not splits_into_groups(0, 7)


def test_cards_above_the_played_value_never_take_part():
    """R3.2: a group adds up to the played value, so bigger table cards stay."""
    table = ["KC", "QD", "3H", "4S"]
    assert maximal_takes(table_counts(table), 7) == {table_counts(["3H", "4S"])}
    assert not can_sweep(table, 7)


def test_twins_of_a_value_give_distinct_choices_only_when_suits_differ():
    """R1.1: two 5H are one choice; 5H and 5D are two."""
    one = expand_takes(["5H", "5H", "9C"], table_counts(["5H"]))
    assert one == [("5H",)]
    two = expand_takes(["5H", "5D", "9C"], table_counts(["5H"]))
    assert two == [("5H",), ("5D",)]


def test_counts_pack_and_unpack_by_value():
    counts = pack_counts([1, 1, 13, 7])
    assert unpack_counts(counts)[1] == 2
    assert unpack_counts(counts)[13] == 1
    assert unpack_counts(counts)[7] == 1
    assert table_counts(["AS", "AH", "KD", "7C"]) == counts


def _subset_sums(values: list[int], cap: int) -> set[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums if s + v <= cap}
    return sums


def _partitions(values: tuple[int, ...], value: int, memo: dict) -> bool:
    """Can the sorted tuple of values be split into groups adding up to ``value``?"""
    if not values:
        return True
    if values in memo:
        return memo[values]
    top, rest = values[-1], list(values[:-1])
    ok = False

    def pick(i: int, need: int, chosen: list[int]) -> bool:
        if need == 0:
            left = list(rest)
            for c in chosen:
                left.remove(c)
            return _partitions(tuple(left), value, memo)
        for j in range(i, -1, -1):  # the group's other cards, largest first
            v = rest[j]
            if j < i and v == rest[j + 1]:
                continue  # the same value was just tried at this place of the group
            if v <= need and pick(j - 1, need - v, chosen + [v]):
                return True
        return False

    if top <= value:
        ok = pick(len(rest) - 1, value - top, [])
    memo[values] = ok
    return ok


def reference_takes_by_value(table: dict[int, int], value: int) -> set[tuple[int, ...]]:
    """Maximal takes as sorted value tuples: every group-free leftover whose rest splits."""
    values = sorted(v for v, n in table.items() for _ in range(n) if v <= value)
    out: set[tuple[int, ...]] = set()
    memo: dict = {}
    distinct = sorted(set(values))

    def walk(i: int, leftover: list[int]) -> None:
        if value in _subset_sums(leftover, value):
            return  # the leftover holds a group: not maximal, nor anything above it
        if i == len(distinct):
            taken = list(values)
            for v in leftover:
                taken.remove(v)
            if taken and _partitions(tuple(taken), value, memo):
                out.add(tuple(taken))
            return
        v = distinct[i]
        for k in range(values.count(v) + 1):
            walk(i + 1, leftover + [v] * k)

    walk(0, [])
    return out


@pytest.mark.parametrize(
    "table,value",
    [
        ({1: 7, 2: 8, 3: 4}, 14),  # 7 aces, 8 twos, 4 threes and an ace played
        ({1: 8, 2: 8, 3: 4}, 14),  # (as value counts, all 8 aces may lie there)
        ({v: 5 for v in range(1, 6)}, 13),  # 25 low cards A-5
        ({v: 5 for v in range(1, 6)}, 14),
        ({1: 8, 2: 8, 3: 8, 4: 1}, 10),
        ({**{v: 2 for v in range(1, 8)}, 8: 1, 13: 2}, 14),
        ({**{v: 2 for v in range(1, 13)}, 13: 1}, 14),  # 25 cards of values 1..13
    ],
)
def test_adversarial_tables_match_an_independent_leftover_search(table, value):
    """R3.3 on tables too big for the subset brute force: a plain search on values."""
    counts = sum(n << (4 * (v - 1)) for v, n in table.items())
    takes = maximal_takes(counts, value)
    as_values = {tuple(v for v, n in enumerate(unpack_counts(t)) for _ in range(n)) for t in takes}
    assert as_values == reference_takes_by_value(table, value)
    for taken in takes:
        assert splits_into_groups(taken, value)
        assert not has_group(counts - taken, value)


def test_clear_caches_changes_nothing_but_speed():
    table = ["2H", "3H", "4H", "5H", "8H", "10H"]
    before = maximal_takes(table_counts(table), 14)
    captures.clear_caches()
    assert maximal_takes(table_counts(table), 14) == before


@settings(max_examples=400, deadline=None)
@given(
    values=st.lists(st.integers(min_value=1, max_value=13), max_size=10),
    value=st.integers(min_value=2, max_value=14),
)
def test_the_search_of_the_cards_that_matter_finds_the_full_searchs_takes(values, value):
    """Cards of the played value (always taken) and cards without a partner (never
    taken) are left out of the memoized search; the takes must not change."""
    relevant = pack_counts(values) & captures.BELOW[value]
    assert captures._reduced_search(relevant, value) == captures._search(relevant, value)


def test_cards_of_the_played_value_are_taken_alongside_every_packing():
    """Table 7 7 3 4 K, a 7 is played: both sevens and 3+4 (R3.3); the king has no part."""
    counts = pack_counts([7, 7, 3, 4, 13])
    assert maximal_takes(counts, 7) == {pack_counts([7, 7, 3, 4])}
    assert maximal_takes(pack_counts([7, 13]), 7) == {pack_counts([7])}
    assert maximal_takes(pack_counts([9, 13, 12]), 14) == frozenset()


def test_playing_whole_deals_leaves_no_reference_cycles() -> None:
    """The server runs the cyclic collector rarely (app/gc_tuning.py), so garbage in
    cycles waits in memory: the capture search (cold caches) and the deal make none."""
    import gc
    import random

    from app.engine import legal
    from app.engine.deal import Deal
    from app.engine.rules import RuleSet
    from app.engine.shuffle import shuffled_pack

    rng = random.Random(1)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for i in range(4):
            legal.clear_caches()
            deal = Deal.from_pack(RuleSet(), 4, i, shuffled_pack(f"cycles-{i}", 2))
            while not deal.is_over:
                move = rng.choice(deal.legal_moves())
                deal.apply(move.card, move.take)
        gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
        assert gc.garbage == [], f"objects freed only by the cyclic collector: {kinds}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
