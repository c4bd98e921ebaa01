"""An account's profile: its figures from the finished deals and matches of the seats
it held, its ratings, and its recent matches with their replays.

The figures are computed here from plain rows (``ProfileRows``) that the store reads
(app/db/profiles.py), so that what they mean is in one place:

- games: finished matches per player count, and how many of them it won (R6.4: the
  lowest total wins; a shared win counts);
- ``mean_vs_share``: the mean, over its finished deals, of its deal score minus the
  even share of that deal (the deal's points over the players: 42 / n in a double
  pack, R6.3; a variant's own sum where it differs).  Below 0 is better than even,
  as lower scores are better in this game;
- sweeps made and conceded (R4.2, R4.3), doubles counted apart.

- ``coach``: over the deals of its seats the coach has analysed (issue 31), the plays,
  the share the coach left unlabelled (``accuracy``), the mean points lost per play
  and the counts of each label; null while no deal of its is analysed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

from app.engine.view_types import ScoreJson

from .model import Skill
from .ratings import RatingEntry, RatingJson, entries_json

RECENT = 10
"""Matches a profile lists (the latest finished)."""


@dataclass(frozen=True, slots=True)
class SeatName:
    seat: int
    name: str | None
    bot: bool
    username: str | None = None
    """The account holding the seat, if any (None too for a deleted account)."""
    deleted: bool = False
    """The seat's account was deleted: shown as "deleted player", its name withheld."""


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    room_id: str
    match_no: int
    players: int
    seat: int
    cumulative: list[int]
    winners: list[int]
    finished_ms: int
    """When the room last changed (the match's end, for a room's latest match)."""
    seats: list[SeatName] = field(default_factory=list)
    rating: tuple[Skill, Skill] | None = None
    """A rated match: the account's rating before and after."""
    left: bool = False


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    players: int
    seat: int
    scores: list[ScoreJson]


@dataclass(frozen=True, slots=True)
class CoachedSeat:
    """One analysed deal of a seat the account held: the analysis's summary of that
    seat (its ``seats`` entry, docs/protocol.md "The coach's analysis")."""

    plays: int
    loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True, slots=True)
class ProfileRows:
    username: str
    created_ms: int
    matches: list[PlayedMatch]
    """Every finished match of the account's seats, newest first."""
    deals: list[PlayedDeal]
    ratings: list[RatingEntry]
    coached: list[CoachedSeat] = field(default_factory=list)
    """The account's seats in the deals the coach has analysed."""


class ProfileStore(Protocol):
    async def profile_rows(self, username: str, recent: int) -> ProfileRows | None:
        """The rows of the account named ``username`` (any case), None when there is no
        such account (or it was deleted); ``recent`` matches carry their seats."""


class SweepCounts(TypedDict):
    made: int
    doubles_made: int
    conceded: int
    doubles_conceded: int


class SeatJson(TypedDict):
    """A seat of a recent match; a deleted account's name is withheld."""

    seat: int
    name: str | None
    bot: bool
    username: str | None
    deleted: bool


class RatedJson(TypedDict):
    """What a rated match did to the account: its leaderboard rating (mu - 3 sigma) and
    its shown ``mu`` before and after."""

    before: float
    after: float
    mu_before: float
    mu_after: float
    change: float
    provisional: bool


class RecentMatchJson(TypedDict):
    room_id: str
    match_no: int
    players: int
    seat: int
    total: int
    place: int
    won: bool
    left: bool
    finished_ms: int
    seats: list[SeatJson]
    cumulative: list[int]
    rating: RatedJson | None
    history: str
    replay: str


class CoachJson(TypedDict):
    deals: int
    plays: int
    accuracy: float
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


class GamesJson(TypedDict):
    """The account's finished matches and deals at one player count."""

    players: int
    matches: int
    wins: int
    deals: int
    mean_vs_share: float | None


class ProfileJson(TypedDict):
    """GET /api/profiles/{username} (docs/protocol.md, "Profiles and ratings")."""

    username: str
    created_ms: int
    ratings: dict[str, RatingJson]
    matches: int
    deals: int
    games: list[GamesJson]
    mean_vs_share: float | None
    sweeps: SweepCounts
    coach: CoachJson | None
    recent: list[RecentMatchJson]


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _vs_share(deal: PlayedDeal) -> float:
    points = sum(s["total"] for s in deal.scores)
    return deal.scores[deal.seat]["total"] - points / deal.players


def sweeps(deals: Sequence[PlayedDeal]) -> SweepCounts:
    counts: SweepCounts = {"made": 0, "doubles_made": 0, "conceded": 0, "doubles_conceded": 0}
    for d in deals:
        mine = d.scores[d.seat]
        counts["made"] += mine["sweeps"]
        counts["doubles_made"] += mine["double_sweeps"]
        counts["conceded"] += mine["sweeps_conceded"]
        counts["doubles_conceded"] += mine["double_sweeps_conceded"]
    return counts


def _seat_json(s: SeatName) -> SeatJson:
    return {
        "seat": s.seat,
        "name": None if s.deleted else s.name,
        "bot": s.bot,
        "username": s.username,
        "deleted": s.deleted,
    }


def _match_json(m: PlayedMatch) -> RecentMatchJson:
    mine = m.cumulative[m.seat]
    rating: RatedJson | None = None
    if m.rating is not None:
        before, after = m.rating
        rating = {
            "before": round(before.ordinal, 2),
            "after": round(after.ordinal, 2),
            "mu_before": round(before.mu, 3),
            "mu_after": round(after.mu, 3),
            "change": round(after.mu - before.mu, 2),
            "provisional": after.provisional,
        }
    return {
        "room_id": m.room_id,
        "match_no": m.match_no,
        "players": m.players,
        "seat": m.seat,
        "total": mine,
        "place": 1 + sum(1 for t in m.cumulative if t < mine),
        "won": m.seat in m.winners,
        "left": m.left,
        "finished_ms": m.finished_ms,
        "seats": [_seat_json(s) for s in m.seats],
        "cumulative": m.cumulative,
        "rating": rating,
        "history": f"/r/{m.room_id}/history",
        "replay": f"/r/{m.room_id}/replay/{m.match_no}/1",
    }


def coach_figures(coached: Sequence[CoachedSeat]) -> CoachJson | None:
    """The coach's word on the account's play, over every analysed deal of its seats:
    ``accuracy`` is the share of its plays the coach left unlabelled."""
    plays = sum(c.plays for c in coached)
    if not plays:
        return None
    labelled = sum(c.inaccuracies + c.mistakes + c.blunders for c in coached)
    return {
        "deals": len(coached),
        "plays": plays,
        "accuracy": round((plays - labelled) / plays, 4),
        "mean_loss": round(sum(c.loss for c in coached) / plays, 3),
        "inaccuracies": sum(c.inaccuracies for c in coached),
        "mistakes": sum(c.mistakes for c in coached),
        "blunders": sum(c.blunders for c in coached),
    }


def profile(rows: ProfileRows, recent: int = RECENT) -> ProfileJson:
    """GET /api/profiles/{username}'s answer (docs/protocol.md, "Profiles")."""
    counts = sorted({m.players for m in rows.matches} | {d.players for d in rows.deals})
    games: list[GamesJson] = []
    for n in counts:
        matches = [m for m in rows.matches if m.players == n]
        deals = [d for d in rows.deals if d.players == n]
        games.append(
            {
                "players": n,
                "matches": len(matches),
                "wins": sum(1 for m in matches if m.seat in m.winners),
                "deals": len(deals),
                "mean_vs_share": _mean([_vs_share(d) for d in deals]),
            }
        )
    return {
        "username": rows.username,
        "created_ms": rows.created_ms,
        "ratings": entries_json(rows.ratings),
        "matches": len(rows.matches),
        "deals": len(rows.deals),
        "games": games,
        "mean_vs_share": _mean([_vs_share(d) for d in rows.deals]),
        "sweeps": sweeps(rows.deals),
        "coach": coach_figures(rows.coached),
        "recent": [_match_json(m) for m in rows.matches[:recent]],
    }


class Profiles:
    def __init__(self, store: ProfileStore) -> None:
        self.store = store

    async def profile(self, username: str) -> ProfileJson | None:
        rows = await self.store.profile_rows(username, RECENT)
        return None if rows is None else profile(rows)
