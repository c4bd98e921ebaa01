"""What the ladder publishes, as JSON: each finished pack with every result, and each
deal as a replayable scenario (scenarios/FORMAT.md).  The API serves exactly these
shapes, and ``standings`` reads them back: the standings are a function of what is
published, nothing else."""

from __future__ import annotations

from typing import TypedDict

from app.engine.rules import RuleValues
from app.engine.view_types import ScoreJson
from app.rooms.domain.record_types import RecordMove

from .entrants import EntrantKind


class EntrantJson(TypedDict):
    entrant: str
    """The level (``strong``), or ``outside:<account id>``."""
    kind: EntrantKind


class ResultJson(TypedDict):
    """One seat's score in one deal of a pack."""

    deal: int
    """0-based, the pack's rotation."""
    seat: int
    entrant: str
    score: int
    """The seat's deal score (R6.2; its team's under V1): lower is better."""


class PackJson(TypedDict):
    """A finished pack: its seed (the deals are ``shuffled_pack(seed)`` dealt by seat
    0), its table, its seatings and every seat's score in every deal."""

    id: int
    seed: str
    players: int
    rules: RuleValues
    made_ms: int
    finished_ms: int
    entrants: list[EntrantJson]
    """The table, by position: position i sits at seat (i + deal) mod players."""
    seatings: list[list[str]]
    """Per deal, the entrant at each seat."""
    results: list[ResultJson]


class LadderDealJson(TypedDict):
    """A deal of a pack as a scenario of FORMAT.md (``krypkasino scenario`` replays
    it), with who sat where and what each seat scored."""

    name: str
    rules: RuleValues
    players: int
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: list[str]
    moves: list[RecordMove]
    deal: int
    seats: list[str]
    scores: list[ScoreJson]
    totals: list[int]
    seed: str


class PackDealsJson(PackJson):
    """One pack with its deals' records."""

    deals: list[LadderDealJson]


class StandingJson(TypedDict):
    """An entrant's place on the ladder.  ``mean`` is its mean deal score;
    ``relative_mean`` its mean score minus the mean of its table on the same deals
    (the duplicate comparison: the cards' luck cancels); ``low`` and ``high`` the 95%
    interval of ``relative_mean`` (Student t over per-pack means; null under two
    packs).  Lower is better."""

    entrant: str
    kind: EntrantKind
    packs: int
    deals: int
    mean: float
    relative_mean: float
    low: float | None
    high: float | None
    rating: float | None
    """On the anchors' scale (app/ladder/anchored.py): points a deal against the levels'
    average, lower better; a level's is fixed by the levels' own packs, an outside
    bot's estimated from its packs among them.  Null until the anchors are fixed (or
    for a bot with no pack among rated levels)."""
    rating_low: float | None
    rating_high: float | None
    """A bot's rating's 95% interval (null for a level, or under two packs)."""


class LadderJson(TypedDict):
    """GET /api/ladder: the standings over every finished pack of the ladder's table
    size and rules."""

    players: int
    rules: RuleValues
    packs: int
    standings: list[StandingJson]
    updated_ms: int | None
    """When the latest pack counted finished (null: none yet)."""


class PacksJson(TypedDict):
    """GET /api/ladder/packs: a page of finished packs."""

    packs: list[PackJson]
    next_after: int | None
    """``after`` for the next page; null on the last."""
