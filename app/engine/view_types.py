"""The shapes of what the engine tells a view, as typed JSON (docs/protocol.md, the view).

A view is sent as JSON and diffed as JSON after every move, so the engine builds
it as plain dicts and lists; these ``TypedDict``s say exactly which keys each has
and of what type, for the type checker here and, through ``app/wire/view.py``, for
the protocol's JSON Schema.  The engine's own values (``LegalMove``, ``LogEntry``,
``MoveResult``, ``Score``) are frozen objects; these are their wire forms.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

MoveKind = Annotated[str, Literal["creep", "capture", "sweep", "double_sweep"]]
"""What a play did (R3, R4.1, R4.3): a string to the type checker (the engine's kinds
are plain strings on the hot path), one of these four to the published schema."""
Status = Annotated[str, Literal["waiting", "playing", "finished"]]
"""A room's status, as MoveKind is typed."""


class LegalMoveJson(TypedDict):
    """One entry of ``legal``: a move of the seat to move and what it would do."""

    card: str
    take: list[str]
    kind: MoveKind
    points: int
    """Card points it captures (R6.1)."""
    sweep: int
    """What it adds as a sweep (R4.2, R4.3): 0, 5 or 10."""


class PlayJson(TypedDict):
    """One play of the deal as everyone saw it: an entry of ``log``, or ``last_move``."""

    seat: int
    card: str
    kind: MoveKind
    taken: list[str]
    by: NotRequired[Literal["clock", "standin"]]
    """Set when the server played for the seat: its clock ran out, or a stand-in bot
    played while its player was away (the room adds it)."""


class ScoreJson(TypedDict):
    """A seat's running score in a deal (R5, R6): card points and sweeps apart."""

    seat: int
    card_points: int
    sweeps: int
    double_sweeps: int
    sweeps_conceded: int
    double_sweeps_conceded: int
    bordstabbe: int
    sweeps_made_points: int
    sweeps_conceded_points: int
    sweep_transfer: int
    total: int


class AwardJson(TypedDict):
    """The cards left at the end of a deal and who gets them (R5)."""

    seat: int
    cards: list[str]


class PacketMark(TypedDict):
    """A packet dealt in this deal (R2.5): after how many plays, of how many cards."""

    after: int
    size: int
    left: int
    last: bool


class SweepCallJson(TypedDict):
    """The "tabbe på 9" call (seeds/002, app/engine/hints.py): the table was just left
    by a creep or by the pictures' set-aside (R2.4, R2.5), and a card of any of
    ``values`` (hand values 2..14, ace 14) would take it whole."""

    seat: int
    """Who says it: the player who crept, or the dealer."""
    values: list[int]
    after: Annotated[str, Literal["creep", "set_aside"]]


class PublicDealView(TypedDict):
    """The deal as everyone at the table sees it: no hand, no stock order."""

    players: int
    dealer: int | None
    to_move: int | None
    hand_counts: list[int]
    table: list[str]
    stock_count: int
    last_packet: bool
    packets: list[PacketMark]
    set_aside_spades: list[str]
    set_aside_other: list[str]
    sweep_markers: list[list[str]]
    last_capturer: int | None
    scores: list[ScoreJson]
    team_scores: list[int] | None
    partners: list[int | None]
    last_move: PlayJson | None
    log: list[PlayJson]
    award: AwardJson | None
    deal_over: bool
    total_points: int
    sweep_call: SweepCallJson | None
    """Set while a single card value would sweep the table just left by a creep or a
    set-aside (app/engine/hints.py); null otherwise, and in a room with hints off."""


class MatchStanding(TypedDict):
    """The match's part of the public view (R6.4, V8)."""

    deals_total: int | None
    """Deals the match lasts; None when it runs to a points limit (V8)."""
    match_limit: int | None
    cumulative: list[int]
    team_cumulative: list[int] | None
    deal_totals: list[list[int]]
    winners: list[int] | None
    rules: dict[str, bool | int | None]
    """The rule set (``RuleSet.to_dict``: the options of GET /api/rules by name)."""


class PublicMatchView(PublicDealView, MatchStanding):
    """The current deal plus the match standing."""

    status: Status
    deal_no: int


class PrivateView(TypedDict):
    """What only one connection sees: its seat, its hand, its legal moves."""

    you: int | None
    hand: list[str]
    legal: list[LegalMoveJson]


class DealView(PublicDealView, PrivateView):
    """A deal as one seat sees it (no match around it: scenarios, bots, the tutorial)."""


class MatchView(PublicMatchView, PrivateView):
    """A seat's view of a match: the engine's whole part of a room's view."""


class PositionMove(TypedDict):
    """What the move that led to a replayed position did (the engine's ``MoveResult``)."""

    seat: int
    card: str
    kind: str
    taken: list[str]
    conceded_by: int | None
    packet_dealt: bool


class Position(TypedDict):
    """A position of a finished deal, as the replay viewer and a review's what-if show
    it: the deal's public view less ``players``, ``dealer``, ``hand_counts``, ``log``,
    ``last_move`` and ``sweep_call`` (app/rooms/domain/replay.py says why), then its
    ``step``, every hand (no secret once the deal is over) and its ``move``."""

    to_move: int | None
    table: list[str]
    stock_count: int
    last_packet: bool
    packets: list[PacketMark]
    set_aside_spades: list[str]
    set_aside_other: list[str]
    sweep_markers: list[list[str]]
    last_capturer: int | None
    scores: list[ScoreJson]
    team_scores: list[int] | None
    partners: list[int | None]
    award: AwardJson | None
    deal_over: bool
    total_points: int
    step: int
    hands: list[list[str]]
    move: PositionMove | None
