"""An independent, brute-force reading of the rules, for the engine tests to compare with.

Nothing here imports the engine: values, points, groups, partitions and the
move checks of scenarios/FORMAT.md are written again, as plainly as
possible, straight from RULES.md.  It is slow (subsets of the table are
enumerated) and meant for tables of up to a dozen cards.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


def table_value(card: str) -> int:
    """R1.4: an ace lying on the table is 1."""
    return RANK_VALUES[card[:-1]]


def hand_value(card: str) -> int:
    """R1.4: an ace played from hand is 14."""
    return 14 if card[:-1] == "A" else RANK_VALUES[card[:-1]]


def points(card: str, nordic: bool = False) -> int:
    """R6.1, V3."""
    if card == "10D":
        return 0 if nordic else 3
    if card in ("2S", "AS"):
        return 2
    return 1 if card[-1] == "S" or card[:-1] == "A" else 0


def subset_sums(values: list[int], cap: int) -> set[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums if s + v <= cap}
    return sums


def has_group(cards: list[str], value: int) -> bool:
    """R3.2: some non-empty subset of the cards adds up to the value."""
    return value in subset_sums([table_value(c) for c in cards], value)


def partitions(values: list[int], value: int, memo: dict | None = None) -> bool:
    """Can the values be split into groups that each add up to ``value``?"""
    memo = {} if memo is None else memo
    key = tuple(sorted(values))
    if not key:
        return True
    if key in memo:
        return memo[key]
    top, rest = key[-1], list(key[:-1])
    ok = False
    if top <= value:
        need = value - top
        tried = set()
        for k in range(0, len(rest) + 1):
            for combo in combinations(range(len(rest)), k):
                part = tuple(rest[i] for i in combo)
                if sum(part) != need or part in tried:
                    continue
                tried.add(part)
                left = [rest[i] for i in range(len(rest)) if i not in combo]
                if partitions(left, value, memo):
                    ok = True
                    break
            if ok:
                break
    memo[key] = ok
    return ok


def splits(cards: list[str], value: int) -> bool:
    return (
        bool(cards)
        and sum(map(table_value, cards)) % value == 0
        and partitions([table_value(c) for c in cards], value)
    )


def can_sweep(table: list[str], value: int) -> bool:
    """R4.1, R4.5: the whole, non-empty table splits into groups."""
    return bool(table) and splits(table, value)


def is_picture(card: str) -> bool:
    return card[:-1] in ("J", "Q", "K")


def reachable(table: list[str], card: str, rules) -> list[str]:
    """The table cards ``card`` may form groups with: all of them, except under V9
    (a picture pairs only with its own rank, other cards never with a picture)."""
    if not getattr(rules, "picture_pairs", False):
        return list(table)
    if is_picture(card):
        return [c for c in table if c[:-1] == card[:-1]]
    return [c for c in table if not is_picture(c)]


def sweeps_with(table: list[str], card: str, rules) -> bool:
    """R4.1 (V9): ``card`` can take the whole table."""
    return len(reachable(table, card, rules)) == len(table) and can_sweep(table, hand_value(card))


def oracle_code(hand: list[str], table: list[str], rules, card: str, take: list[str]) -> str | None:
    """The error code FORMAT.md prescribes for a move, or None when it is legal.

    The checks in FORMAT.md's order: not_in_hand, invalid_capture,
    must_capture (this card), not_maximal, must_sweep, must_capture (V6).
    """
    if card not in hand:
        return "not_in_hand"
    value = hand_value(card)
    if Counter(take) - Counter(table):
        return "invalid_capture"
    mine = reachable(table, card, rules)
    if Counter(take) - Counter(mine):
        return "invalid_capture"  # V9: a picture with another rank
    if take and not splits(list(take), value):
        return "invalid_capture"
    if not take and has_group(mine, value):
        return "must_capture"
    left = list((Counter(mine) - Counter(take)).elements())
    if take and has_group(left, value):
        return "not_maximal"
    sweep = bool(take) and len(take) == len(table)
    if not rules.no_forced_sweep and not sweep and any(sweeps_with(table, c, rules) for c in hand):
        return "must_sweep"
    if (
        rules.strict_capture
        and not take
        and any(has_group(reachable(table, c, rules), hand_value(c)) for c in hand)
    ):
        return "must_capture"
    return None


def oracle_legal(hand: list[str], table: list[str], rules) -> set[tuple[str, tuple[str, ...]]]:
    """Every distinct legal (card, sorted take): all cards times all sub-multisets of the table."""
    n = len(table)
    takes = {tuple(sorted(table[i] for i in range(n) if mask >> i & 1)) for mask in range(1 << n)}
    return {
        (card, take)
        for card in set(hand)
        for take in takes
        if oracle_code(hand, table, rules, card, list(take)) is None
    }


def oracle_kind(table: list[str], card: str, take: tuple[str, ...]) -> str:
    """R3.4, R4.2, R4.3: creep, capture, sweep or double sweep."""
    if not take:
        return "creep"
    if len(take) < len(table):
        return "capture"
    if len(take) == 1 and take[0] == card and card[:-1] != "A":
        return "double_sweep"
    return "sweep"


def pack_points(single_pack: bool, nordic: bool) -> int:
    """R6.1, V2, V3: 42 in two packs, 36 Nordic; 21 in one pack, 18 Nordic."""
    return {(False, False): 42, (False, True): 36, (True, False): 21, (True, True): 18}[
        (single_pack, nordic)
    ]


def bordstabbe_fires(opening_table: list[str], picture_pairs: bool = False) -> bool:
    """V5: the cleaned opening table holds 2+ cards, all of one value (V9: not cleaned)."""
    cleaned = [c for c in opening_table if picture_pairs or not is_picture(c)]
    return len(cleaned) >= 2 and len({table_value(c) for c in cleaned}) == 1
