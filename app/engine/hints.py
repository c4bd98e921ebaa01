"""The "tabbe på 9" call: which card values would sweep the table, and when to say so.

At a Norwegian club table (seeds/002) a player who creeps and leaves a table that
one card value would take whole says so aloud ("tabbe på 9": a 5 and a 4 lie
there), and the dealer says it when the pictures set aside between packets leave
such a table (R2.4, R2.5, example E7).  The call is public knowledge: anyone can
count the table; it only spares the counting.

The values are the engine's: ``sweep_values`` asks the same capture search the
legal-move generator asks (takes.py), so every variant that changes what a card
takes changes the call too.  V9 (picture pairs): a picture sweeps only a table of
its own rank, and a table holding a picture is swept by no numeral.  V4 (no
forced sweep) does not change which values *could* take the whole table (a sweep
is then optional, not impossible), so the call is the same.  V2, V3, V5, V6, V7
and V8 change nothing of what a card takes.  An ace counts 14 from hand (R1.4):
it is listed as 14.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .cards import ALL_CODES, Card, table_value
from .counts import table_counts
from .deal import Deal
from .rules import RuleSet
from .takes import can_sweep
from .view_types import SweepCallJson

TABLE_VALUE = {c: table_value(c) for c in ALL_CODES}
CREEP: Literal["creep"] = "creep"
SET_ASIDE: Literal["set_aside"] = "set_aside"


def sweep_values(table: Sequence[Card], rules: RuleSet) -> list[int]:
    """The hand values (2..14, ace 14) that would take this whole table (R4.1, R4.5, V9).

    Empty for an empty table (R4.5) and for a table no single card takes whole.
    """
    if not table:
        return []
    values = [TABLE_VALUE[c] for c in table]
    total, top = sum(values), max(values)
    # A value sweeps only a table whose values add up to a multiple of it and that
    # holds none above it (R3.2): most values are out before any search is asked.
    counts = table_counts(table)
    pairs = rules.picture_pairs
    return [v for v in range(max(2, top), 15) if not total % v and can_sweep(counts, v, pairs)]


def sweep_call(deal: Deal) -> SweepCallJson | None:
    """The call to make now, or None: the table was just left by a creep (R3.4), by
    the deal's opening once its pictures were set aside (R2.4), or by a new packet's
    clean-up (R2.5), and some single card value would sweep it.

    ``seat`` is who says it: the player who crept, or the dealer after a deal or a
    packet.  A capture that leaves a sweepable table is not called (at the table the
    call belongs to the creep, seeds/002), nor is anything once the deal is over.
    """
    if deal.is_over:
        return None
    results = deal.results
    after: Literal["creep", "set_aside"]
    if not results:
        after, seat = SET_ASIDE, deal.dealer
    else:
        last = results[-1]
        if last.packet_dealt:
            after, seat = SET_ASIDE, deal.dealer
        elif last.kind == "creep":
            after, seat = CREEP, last.seat
        else:
            return None
    values = sweep_values(deal.table, deal.rules)
    if not values:
        return None
    return {"seat": seat, "values": values, "after": after}
