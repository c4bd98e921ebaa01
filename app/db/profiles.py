"""An account's profile rows (the ``ProfileStore`` of app/ratings/profiles.py): its
seats, the finished matches and deals of their rooms, its rating results, and the
seats of its recent matches.  Read straight from the tables (no room is replayed):
``deals.scores`` and ``matches.cumulative`` are written with the play that ended them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from sqlalchemy import select

from app.ratings.model import Skill
from app.ratings.profiles import CoachedSeat, PlayedDeal, PlayedMatch, ProfileRows, SeatName

from .models import Account, AnalysisRow, DealRow, MatchRow, RatingResult, Room, Seat
from .outage import outages_as_unavailable
from .purge import utc
from .ratings import RatingRows
from .repository import RoomRepository


class ProfileReads:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo
        self.ratings = RatingRows(repo)

    @outages_as_unavailable
    async def profile_rows(self, username: str, recent: int) -> ProfileRows | None:
        async with self.repo.sessions() as s:
            account = await s.scalar(
                select(Account).where(
                    Account.username_key == username.lower(), Account.deleted_ms.is_(None)
                )
            )
            if account is None or account.username is None:
                return None
            held = (
                await s.execute(
                    select(Seat.room_id, Seat.seat, Room.players, Room.updated_at)
                    .join(Room, Room.id == Seat.room_id)
                    .where(Seat.account_id == account.id)
                )
            ).all()
            seats_of: dict[str, list[int]] = defaultdict(list)
            room_info: dict[str, tuple[int, int]] = {}
            for room_id, seat, players, updated in held:
                seats_of[room_id].append(int(seat))
                room_info[room_id] = (int(players), int(utc(updated).timestamp() * 1000))
            rooms = list(seats_of)
            matches = await _matches(s, rooms, seats_of, room_info)
            deals = await _deals(s, rooms, seats_of, room_info)
            coached = await _coached(s, rooms, seats_of)
            await _rated(s, account.id, matches)
            shown = matches[:recent]
            names = await _seat_names(s, sorted({m.room_id for m in shown}))
            matches[:recent] = [replace(m, seats=names.get(m.room_id, [])) for m in shown]
        return ProfileRows(
            username=account.username,
            created_ms=account.created_ms,
            matches=matches,
            deals=deals,
            ratings=await self.ratings.ratings_of(account.id),
            coached=coached,
        )


async def _matches(
    s: Any,
    rooms: list[str],
    seats_of: dict[str, list[int]],
    room_info: dict[str, tuple[int, int]],
) -> list[PlayedMatch]:
    if not rooms:
        return []
    rows = await s.scalars(
        select(MatchRow).where(MatchRow.room_id.in_(rooms), MatchRow.finished.is_(True))
    )
    out = [
        PlayedMatch(
            room_id=m.room_id,
            match_no=m.match_no,
            players=room_info[m.room_id][0],
            seat=seat,
            cumulative=list(m.cumulative or []),
            winners=list(m.winners or []),
            finished_ms=room_info[m.room_id][1],
        )
        for m in rows
        for seat in seats_of[m.room_id]
    ]
    out.sort(key=lambda m: (m.finished_ms, m.match_no), reverse=True)
    return out


async def _deals(
    s: Any,
    rooms: list[str],
    seats_of: dict[str, list[int]],
    room_info: dict[str, tuple[int, int]],
) -> list[PlayedDeal]:
    if not rooms:
        return []
    rows = await s.execute(
        select(DealRow.room_id, DealRow.scores).where(
            DealRow.room_id.in_(rooms), DealRow.scores.is_not(None)
        )
    )
    return [
        PlayedDeal(room_info[room_id][0], seat, list(scores))
        for room_id, scores in rows
        if scores
        for seat in seats_of[room_id]
    ]


async def _coached(s: Any, rooms: list[str], seats_of: dict[str, list[int]]) -> list[CoachedSeat]:
    """The analysis's summary of each of the account's seats in each analysed deal."""
    if not rooms:
        return []
    rows = await s.execute(
        select(AnalysisRow.room_id, AnalysisRow.result).where(
            AnalysisRow.room_id.in_(rooms), AnalysisRow.status == "done"
        )
    )
    out = []
    for room_id, result in rows:
        by_seat = {e["seat"]: e for e in (result or {}).get("seats", [])}
        for seat in seats_of[room_id]:
            e = by_seat.get(seat)
            if e is not None and e["plays"]:
                out.append(
                    CoachedSeat(
                        e["plays"], e["loss"], e["inaccuracies"], e["mistakes"], e["blunders"]
                    )
                )
    return out


async def _rated(s: Any, account_id: str, matches: list[PlayedMatch]) -> None:
    """Put each rated match's rating change (and whether the account left) in place."""
    rows = await s.scalars(select(RatingResult).where(RatingResult.account_id == account_id))
    found = {(r.room_id, r.match_no, r.seat): r for r in rows}
    for i, m in enumerate(matches):
        r = found.get((m.room_id, m.match_no, m.seat))
        if r is not None:
            change = (Skill(r.mu_before, r.sigma_before), Skill(r.mu_after, r.sigma_after))
            matches[i] = replace(m, rating=change, left=bool(r.left))


async def _seat_names(s: Any, rooms: list[str]) -> dict[str, list[SeatName]]:
    if not rooms:
        return {}
    rows = await s.execute(
        select(Seat.room_id, Seat.seat, Seat.name, Seat.bot, Account.username, Account.deleted_ms)
        .outerjoin(Account, Account.id == Seat.account_id)
        .where(Seat.room_id.in_(rooms))
        .order_by(Seat.room_id, Seat.seat)
    )
    out: dict[str, list[SeatName]] = defaultdict(list)
    for room_id, seat, name, bot, username, deleted_ms in rows:
        deleted = deleted_ms is not None
        out[room_id].append(
            SeatName(int(seat), name, bool(bot), None if deleted else username, deleted)
        )
    return out
