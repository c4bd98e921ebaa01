"""What the plays of a deal prove about the cards a seat cannot see (R4.1, V6).

A forced sweep (R4.1) and strict capture (V6) are obligations, so a play
that does not meet one proves what the player did not hold: a seat that
did anything but sweep held no card of a value that would have swept the
table it faced, and under V6 a seat that crept held no card that could
capture.  Every card a seat holds now was already in its hand at each of
its plays since the current packet was dealt, so the values those plays
rule out are values it lacks now.  This is rules knowledge, so it lives in
the engine; search (the ``strong`` bot) keeps those values out of the hands
it samples, and the ``greedy`` bot out of its trap odds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .infoset import InformationSet
from .results import LogEntry
from .rules import RuleSet
from .takes import capturing_values, sweeping_values
from .turns import plays_with_current_hands


def faced_tables(table: Sequence[Card], plays: Sequence[LogEntry]) -> list[list[Card]] | None:
    """The table each of ``plays`` (the latest plays, oldest first) was made on.

    Found by undoing them from ``table``, newest first: a capture's taken cards
    go back, a crept card leaves.  None when the plays cannot have led to this
    table (a crept card that is not on it): then nothing can be inferred.  The
    plays must all come after the latest packet, whose clean-up (R2.5) is not
    undone.
    """
    before = list(table)
    faced: list[list[Card]] = []
    for entry in reversed(plays):
        if entry.taken:
            before = before + list(entry.taken)
        elif entry.card in before:
            before = list(before)
            before.remove(entry.card)
        else:
            return None
        faced.append(before)
    faced.reverse()
    return faced


def proven_lacks(info: InformationSet) -> dict[int, frozenset[int]]:
    """Per other seat, the hand values (2..14) it provably does not hold now."""
    return lacks_from_plays(
        info.rules, info.players, info.seat, info.table, info.hand_counts, info.history
    )


def lacks_from_plays(
    rules: RuleSet,
    players: int,
    me: int,
    table: Sequence[Card],
    hand_counts: Sequence[int],
    history: Sequence[LogEntry],
) -> dict[int, frozenset[int]]:
    """``proven_lacks`` from its parts: the plays made with the hands now held
    (``turns.plays_with_current_hands``), each judged on the table it faced."""
    if not history or not (rules.forced_sweep or rules.strict_capture):
        return {}
    recent = plays_with_current_hands(rules, players, len(history), sum(hand_counts))
    if not recent:
        return {}
    plays = history[len(history) - recent :]
    tables = faced_tables(table, plays)
    if tables is None:  # the log does not match the table: infer nothing
        return {}
    lacks: dict[int, set[int]] = {}
    for entry, faced in zip(plays, tables, strict=True):
        if entry.seat == me or not faced:
            continue
        swept = len(entry.taken) == len(faced)
        if rules.forced_sweep and not swept:  # R4.1
            lacks.setdefault(entry.seat, set()).update(sweeping_values(faced, rules))
        if rules.strict_capture and not entry.taken:  # V6
            lacks.setdefault(entry.seat, set()).update(capturing_values(faced, rules))
    return {seat: frozenset(v) for seat, v in lacks.items() if v}
