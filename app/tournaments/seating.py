"""Who sits where in a tournament: pure functions of the entrants and what has been.

``None`` in a table is a bot's seat: a field that does not fill its tables is made
up with bots (the room's own, at the event's level), people spread as evenly as the
tables allow, so that no table is one person among bots while another is full.

- **Swiss** (``swiss_tables``): each round seats the people by the standings so far,
  best first, with the fewest repeat meetings a bounded search finds: a table is its
  best unseated person and the next best with whom nobody at it meets again, so
  players meet again only where the field leaves no other way (or, in a field too
  large to search whole, where the search found none).  Before the first round the
  standings are all level and the order is the event's seeded draw (``draw``).
- **Duplicate** (``duplicate_tables``, ``board_seating``): the tables are drawn once
  and keep their people; from board to board the people move one seat round (the
  bots keep the last seats, where a room puts them), so each holds another seat's
  cards on each board, and every seat's cards are held at every table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

Table = list[str | None]
"""One table's seats in order: an entrant's id, or None for a bot."""


def draw(entrants: Sequence[str], seed: str) -> list[str]:
    """The entrants in the event's own order (a shuffle seeded by the event), so that
    the first seating is neither registration order nor anyone's choice."""
    order = sorted(entrants)
    random.Random(seed).shuffle(order)
    return order


def table_people(people: int, size: int) -> list[int]:
    """How many people sit at each table: as few tables as seat everyone, the counts
    differing by one at most, the fuller tables first.  Every table has at least one
    person (bots fill the rest)."""
    if people < 1 or size < 2:
        raise ValueError("a seating needs people and tables of two or more")
    tables = -(-people // size)
    base, extra = divmod(people, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def _pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def meetings(tables: Sequence[Sequence[str | None]]) -> Counter[tuple[str, str]]:
    """How often each pair of people shared a table in ``tables``."""
    met: Counter[tuple[str, str]] = Counter()
    for table in tables:
        people = [p for p in table if p is not None]
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                met[_pair_key(a, b)] += 1
    return met


SEARCH_NODES = 20_000
"""Seatings the Swiss search tries at most before it keeps the best found so far."""


def _repeats(table: Sequence[str], met: Mapping[tuple[str, str], int]) -> int:
    return sum(met.get(_pair_key(a, b), 0) for i, a in enumerate(table) for b in table[i + 1 :])


def _greedy(
    ranked: Sequence[str], met: Mapping[tuple[str, str], int], counts: list[int]
) -> list[list[str]]:
    """Each table: the best unseated person, then whoever has met those chosen least."""
    left = list(ranked)
    tables: list[list[str]] = []
    for count in counts:
        chosen = [left.pop(0)]
        while len(chosen) < count:
            best = min(
                range(len(left)),
                key=lambda i: (sum(met.get(_pair_key(left[i], c), 0) for c in chosen), i),
            )
            chosen.append(left.pop(best))
        tables.append(chosen)
    return tables


def swiss_tables(
    ranked: Sequence[str], met: Mapping[tuple[str, str], int], size: int
) -> list[Table]:
    """One Swiss round's tables for ``ranked`` (best first), with as few repeat meetings
    as can be found.

    The tables are searched in the order of the standings (each table: the best
    unseated person and the next best who fit), so the first seating without a repeat
    is also the one closest to the standings; the search starts from the greedy
    seating (each table takes whoever has met its people least) and keeps a better
    one when it finds it, trying at most SEARCH_NODES seatings.  Bots fill each
    table's empty seats, last."""
    counts = table_people(len(ranked), size)
    best = _greedy(ranked, met, counts)
    best_cost = sum(_repeats(t, met) for t in best)
    nodes = 0

    def search(left: list[str], sizes: list[int], done: list[list[str]], cost: int) -> None:
        nonlocal best, best_cost, nodes
        if not sizes:
            best, best_cost = [list(t) for t in done], cost
            return
        first, rest = left[0], left[1:]
        for size_here in dict.fromkeys(sizes):  # the fuller table first, the other too
            others_left = list(sizes)
            others_left.remove(size_here)
            for others in combinations(range(len(rest)), size_here - 1):
                nodes += 1
                if nodes > SEARCH_NODES or best_cost == 0:
                    return
                table = [first, *(rest[i] for i in others)]
                added = cost + _repeats(table, met)
                if added >= best_cost:
                    continue
                remaining = [p for i, p in enumerate(rest) if i not in others]
                search(remaining, others_left, [*done, table], added)

    if best_cost:
        search(list(ranked), counts, [], 0)
    return [[*t, *([None] * (size - len(t)))] for t in best]


def duplicate_tables(entrants: Sequence[str], seed: str, size: int) -> list[Table]:
    """A duplicate event's tables, drawn once for every board (bots fill them)."""
    order = draw(entrants, seed)
    tables: list[Table] = []
    for count in table_people(len(order), size):
        people: Table = [order.pop(0) for _ in range(count)]
        tables.append(people + [None] * (size - count))
    return tables


def board_seating(table: Sequence[str | None], rotation: int) -> Table:
    """The table's seats for the board ``rotation`` boards after the first: its people
    move round the people's seats (the bots keep the last ones, as a room seats them),
    so each holds another seat's cards on each board."""
    people = [p for p in table if p is not None]
    moved: Table = [people[(seat + rotation) % len(people)] for seat in range(len(people))]
    return moved + [None] * (len(table) - len(people))
