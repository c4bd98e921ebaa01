"""The shapes of finished deals: as the stores keep them, and as the history serves them."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from app.engine.rules import RuleValues
from app.engine.view_types import AwardJson, Position, ScoreJson

from .events import MovedBy


class RecordMove(TypedDict):
    """A move of a record, as FORMAT.md's ``moves`` lists them."""

    card: str
    take: list[str]
    by: NotRequired[MovedBy]
    """Set when the server played it for the seat (its clock, a stand-in bot)."""


class AssistMark(TypedDict):
    """A take-back or a hint in a deal against bots (issue 33), where it happened.

    ``index`` is how many of the deal's moves stood at that moment (the replay's step):
    for a take-back the position it went back to, for a hint the position it was asked
    in.  The record's ``moves`` are the plays that stand; a take-back lists the plays
    it undid (``moves``: the person's and any bot's after it), a hint what it said."""

    index: int
    kind: Literal["takeback", "hint"]
    seat: int
    moves: NotRequired[list[RecordMove]]
    card: NotRequired[str]
    take: NotRequired[list[str]]


class StoredDeal(TypedDict):
    """A finished deal as the stores keep it (app/db/deal_records.py, memory.py)."""

    room_id: str
    match_no: int
    deal_no: int
    rules: RuleValues
    pack: list[str]
    dealer: int
    players: int
    seed: str
    commitment: str
    scores: list[ScoreJson] | None
    totals: list[int] | None
    moves: list[RecordMove]
    assists: NotRequired[list[AssistMark]]
    """Take-backs and hints (none: a deal without any, or a store that has none)."""


class SeatName(TypedDict):
    seat: int
    name: str | None
    bot: bool
    outside_bot: NotRequired[bool]
    """Held by a bot account (issue 51): a program plays it (app/db/seat_reads.py)."""


class DealRecord(TypedDict):
    """The public record of a finished deal: a scenario of FORMAT.md plus its outcome."""

    name: str
    rules: RuleValues
    players: int
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: list[str]
    moves: list[RecordMove]
    deal_no: int
    match_no: int
    scores: list[ScoreJson] | None
    totals: list[int] | None
    award: AwardJson | None
    seed: str
    commitment: str
    assists: list[AssistMark]
    """Take-backs and hints, in order (only a room of one person against bots has any)."""
    seats: NotRequired[list[SeatName]]
    """The seats' names (the history adds them)."""
    positions: NotRequired[list[Position]]
    """Every position, replayed by the engine (the replay viewer asks for them)."""
