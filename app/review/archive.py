"""A room's history as the API serves it: every match, every finished deal, a whole
match for download, the rooms a player sat in.

Read from the stored rows (``app/db/history.py``), never from a room in memory, so a
finished room is not loaded to be looked at, and a rematch or a restart loses nothing:
a deal record is found by its match and deal number.  Match facts that are rules (how
many deals a match lasts, team totals) come from the engine.  Only finished deals are
served; a deal in play is not mentioned beyond its number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypedDict

from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.engine.match import Match
from app.engine.rules import RuleSet, RuleValues
from app.engine.scoring import team_totals
from app.engine.view_types import ScoreJson
from app.rooms.domain.record_types import DealRecord, SeatName, StoredDeal
from app.rooms.domain.records import deal_record
from app.rooms.domain.replay import positions

FINISHED = "finished"
PLAYING = "playing"
CLOSED = "closed"
"""A match's status: played to its end, still going, or ended by an operator closing
the room before its end."""


class StoredMatch(TypedDict):
    match_no: int
    first_dealer: int
    cumulative: list[int]
    deals_played: int
    finished: bool
    winners: list[int]


class FinishedDeal(TypedDict):
    match_no: int
    deal_no: int
    dealer: int
    scores: list[ScoreJson] | None
    totals: list[int] | None


class DealEntry(TypedDict):
    deal_no: int
    dealer: int
    scores: list[ScoreJson] | None
    totals: list[int] | None


class MatchEntry(TypedDict):
    """A match of GET /api/rooms/{id}/matches."""

    match_no: int
    status: str
    rules: RuleValues
    players: int
    seats: list[SeatName]
    first_dealer: int
    deals_total: int | None
    deals_played: int
    deals: list[DealEntry]
    cumulative: list[int]
    team_cumulative: list[int] | None
    winners: list[int]


class MatchDownload(MatchEntry):
    """One whole match as a file: its entry and every finished deal's record."""

    room_id: str
    code: str
    records: list[DealRecord]


class GameEntry(TypedDict):
    """A room of "My games"."""

    room_id: str
    code: str
    status: str
    players: int
    rules: RuleValues
    seat: int
    seats: list[SeatName]
    updated_at: str
    matches: list[MatchEntry]
    pace: str
    to_move: bool
    deadline: int | None


LIVE = "live"
"""The pace of a room whose options name none (issue 32; the other is
``correspondence``, a room played over days)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """The move a correspondence room waits for: whose it is and when it falls due
    (Unix ms), as the room's deadline row says (issue 32)."""

    seat: int
    due_ms: int


@dataclass(frozen=True, slots=True)
class RoomHistory:
    """A room's stored rows as its history needs them (read by ``app/db/history.py``)."""

    room_id: str
    code: str
    players: int
    rules: RuleValues
    status: str
    updated_at: datetime
    seats: list[SeatName]
    matches: list[StoredMatch]
    """Oldest first."""
    deals: list[FinishedDeal]
    """Finished deals only."""
    pace: str = LIVE
    waiting: Waiting | None = None
    """Read for "My games" only; None in a live room and whenever no move is awaited."""


class HistoryStore(Protocol):
    async def room_history(self, room_id: str) -> RoomHistory | None:
        """None for no such room; raises RoomPurged for a purged one."""

    async def player_rooms(
        self, player_hashes: Sequence[str], account_id: str | None = None
    ) -> list[tuple[int, RoomHistory]]:
        """(seat held, room) for the rooms these key hashes (or this account, issue 34)
        sat in: first those waiting for a move of the seat held (soonest deadline
        first), then the rest, newest first; each with its pace and the move awaited."""

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        """The stored finished deal (pack, moves, scores...), None when not over."""


def _not_found(what: str) -> ServiceError:
    return ServiceError(ErrorCode.NOT_FOUND, what)


def match_entries(h: RoomHistory) -> list[MatchEntry]:
    """The matches of GET /api/rooms/{id}/matches, oldest first."""
    rules = RuleSet.from_dict(h.rules)
    out: list[MatchEntry] = []
    last = h.matches[-1]["match_no"] if h.matches else None
    for m in h.matches:
        match = Match(rules, h.players, m["first_dealer"])
        if m["finished"]:
            status = FINISHED
        elif m["match_no"] == last and h.status != FINISHED:
            status = PLAYING
        else:
            status = CLOSED
        deals: list[DealEntry] = [
            {
                "deal_no": d["deal_no"],
                "dealer": d["dealer"],
                "scores": d["scores"],
                "totals": d["totals"],
            }
            for d in h.deals
            if d["match_no"] == m["match_no"]
        ]
        out.append(
            {
                "match_no": m["match_no"],
                "status": status,
                "rules": h.rules,
                "players": h.players,
                "seats": h.seats,
                "first_dealer": m["first_dealer"],
                "deals_total": match.deals_total,
                "deals_played": len(deals),
                "deals": deals,
                "cumulative": m["cumulative"],
                "team_cumulative": team_totals(m["cumulative"], rules.partnership),
                "winners": m["winners"] if m["finished"] else [],
            }
        )
    return out


class Archive:
    """History reads for the HTTP API; every database failure is ``unavailable``."""

    def __init__(self, store: HistoryStore) -> None:
        self.store = store

    async def _history(self, room_id: str) -> RoomHistory:
        try:
            h = await self.store.room_history(room_id)
        except Unavailable as exc:
            raise unavailable() from exc
        if h is None:
            raise _not_found("no such room")
        return h

    async def matches(self, room_id: str) -> list[MatchEntry]:
        return match_entries(await self._history(room_id))

    async def deal(
        self, room_id: str, match_no: int, deal_no: int, with_positions: bool = False
    ) -> DealRecord:
        """A finished deal's record (the scenario plus scores, award, seed, commitment),
        with the seats' names and, when asked, every position; 404 for a deal that is
        not over or does not exist."""
        h = await self._history(room_id)
        try:
            stored = await self.store.deal_record(room_id, match_no, deal_no)
        except Unavailable as exc:
            raise unavailable() from exc
        if stored is None:
            raise _not_found(f"deal {deal_no} of match {match_no} is not over (or does not exist)")
        record = deal_record(stored)
        record["seats"] = h.seats
        if with_positions:
            record["positions"] = positions(stored)
        return record

    async def steps(self, room_id: str, match_no: int, deal_no: int) -> int:
        """How many moves a finished deal has (a review's last step); 404 unless over."""
        try:
            stored = await self.store.deal_record(room_id, match_no, deal_no)
        except Unavailable as exc:
            raise unavailable() from exc
        if stored is None:
            raise _not_found(f"deal {deal_no} of match {match_no} is not over (or does not exist)")
        return len(stored["moves"])

    async def match(self, room_id: str, match_no: int) -> MatchDownload:
        """One match with the record of each of its finished deals (the download)."""
        h = await self._history(room_id)
        entry = next((m for m in match_entries(h) if m["match_no"] == match_no), None)
        if entry is None:
            raise _not_found(f"no match {match_no} in this room")
        records: list[DealRecord] = []
        for d in entry["deals"]:
            try:
                stored = await self.store.deal_record(room_id, match_no, d["deal_no"])
            except Unavailable as exc:
                raise unavailable() from exc
            if stored is not None:
                records.append(deal_record(stored))
        return {**entry, "room_id": h.room_id, "code": h.code, "records": records}

    async def games(
        self, player_hashes: list[str], account_id: str | None = None
    ) -> list[GameEntry]:
        """The rooms these keys (or this account) sat in, with the seat held and each
        match's standing (for "My games"): the rooms where it is this player's move
        first, the soonest deadline first (issue 32), then the rest, newest first."""
        try:
            rooms = await self.store.player_rooms(player_hashes, account_id)
        except Unavailable as exc:
            raise unavailable() from exc
        out: list[GameEntry] = []
        for seat, h in rooms:
            waiting = h.waiting  # a person's move: a bot's turn has no deadline to tell of
            mine = waiting is not None and waiting.seat == seat
            out.append(
                {
                    "room_id": h.room_id,
                    "code": h.code,
                    "status": h.status,
                    "players": h.players,
                    "rules": h.rules,
                    "seat": seat,
                    "seats": h.seats,
                    "updated_at": h.updated_at.isoformat(),
                    "matches": match_entries(h),
                    "pace": h.pace,
                    "to_move": mine,
                    "deadline": waiting.due_ms if waiting is not None else None,
                }
            )
        return sorted(out, key=your_turn_first)


def your_turn_first(game: GameEntry) -> tuple[int, int]:
    """The order of "My games": the player's moves first, the soonest deadline first;
    the rest keep the order they came in (sorted is stable)."""
    if game["to_move"]:
        return (0, game["deadline"] or 0)
    return (1, 0)
