"""An event as its page and its export show it: built from the stored ``Snapshot``
alone, for one reader (pure).

What a duplicate board holds is left out until every table has played it
(progress.complete_boards): its seed (its hash is shown from the start), every
result on it, and the matchpoints it gives.  A Swiss table's results show once it
is done.  Rooms are listed for every table (their links: the rooms themselves refuse
watchers of a sealed board, app/api/sealed_boards.py).
"""

from __future__ import annotations

import csv
import io
from typing import TypedDict

from .arena import arena_end
from .plan import PlanJson
from .progress import complete_boards, round_due
from .standings import Result, Standing, board_scores, duplicate_standings, swiss_standings
from .store import Snapshot


class SeatJson(TypedDict):
    seat: int
    username: str | None
    bot: bool
    total: int | None
    left: bool
    """A stand-in bot finished the match for this person (shown with the total)."""


class TableJson(TypedDict):
    stage: int
    table: int
    room_id: str | None
    done: bool
    seats: list[SeatJson]


class BoardScoreJson(TypedDict):
    seat: int
    table: int
    username: str | None
    """None for a bot's seat."""
    total: int
    matchpoints: float
    difference: float


class BoardJson(TypedDict):
    board: int
    seed_hash: str
    complete: bool
    seed: str | None
    field: list[BoardScoreJson]
    """Once complete: every seat's result against the others who held its cards."""


class StandingJson(TypedDict):
    place: int
    username: str
    score: float
    tiebreak: float
    played: int


class EntrantJson(TypedDict):
    username: str
    withdrawn: bool


class YouJson(TypedDict):
    registered: bool
    organiser: bool
    room_id: str | None


class EventJson(TypedDict):
    id: str
    name: str
    format: str
    state: str
    club_id: str | None
    organiser: str
    plan: PlanJson
    stage: int
    created_ms: int
    starts_ms: int | None
    started_ms: int | None
    finished_ms: int | None
    ends_ms: int | None
    """An arena: when it stops seating tables (None for other formats, or before the
    start)."""
    next_round_ms: int | None
    """A running Swiss event with rounds at set times: when its next round starts."""
    entrants: list[EntrantJson]
    boards: list[BoardJson]
    tables: list[TableJson]
    standings: list[StandingJson]
    you: YouJson


def standings_of(snap: Snapshot) -> list[Standing]:
    people = [e.account_id for e in snap.entrants]
    if snap.event.plan.format in ("swiss", "arena"):
        return swiss_standings(people, snap.results)
    return duplicate_standings(people, snap.results, complete_boards(snap), snap.event.plan.scoring)


def next_round(snap: Snapshot) -> int | None:
    """When a running Swiss event's next round is set to start (None: no set times,
    or no round follows)."""
    event = snap.event
    if event.state != "running" or event.stage >= event.plan.rounds:
        return None
    return round_due(snap, event.stage + 1)


def page(snap: Snapshot, reader: str | None) -> EventJson:
    """The event for ``reader`` (an account id, or None signed out)."""
    event, plan = snap.event, snap.event.plan
    names = {e.account_id: e.username for e in snap.entrants}
    duplicate = plan.format == "duplicate"
    complete = complete_boards(snap) if duplicate else set()
    scores = board_scores(snap.results, complete)  # empty until a board is complete

    def seat_of(i: int, account: str | None, shown: bool, results: list[Result]) -> SeatJson:
        mine = next((r for r in results if r.seat == i), None) if shown else None
        total, left = (None, False) if mine is None else (mine.total, mine.left)
        if account is None:
            return {"seat": i, "username": None, "bot": True, "total": total, "left": False}
        name = names.get(account, "?")
        return {"seat": i, "username": name, "bot": False, "total": total, "left": left}

    tables: list[TableJson] = []
    for t in snap.tables:
        shown = t.done_ms is not None and (not duplicate or t.stage in complete)
        results = [r for r in snap.results if (r.stage, r.table) == (t.stage, t.table_no)]
        tables.append(
            {
                "stage": t.stage,
                "table": t.table_no,
                "room_id": t.room_id,
                "done": t.done_ms is not None,
                "seats": [seat_of(i, a, shown, results) for i, a in enumerate(t.seats)],
            }
        )
    mine = [
        t.room_id
        for t in snap.tables
        if reader is not None and t.done_ms is None and t.room_id and reader in t.seats
    ]
    entry = next((e for e in snap.entrants if e.account_id == reader), None)
    return {
        "id": event.id,
        "name": event.name,
        "format": plan.format,
        "state": event.state,
        "club_id": event.club_id,
        "organiser": event.organiser_name,
        "plan": plan.to_json(),
        "stage": event.stage,
        "created_ms": event.created_ms,
        "starts_ms": event.starts_ms,
        "started_ms": event.started_ms,
        "finished_ms": event.finished_ms,
        "ends_ms": arena_end(snap) if plan.format == "arena" else None,
        "next_round_ms": next_round(snap),
        "entrants": [
            {"username": e.username, "withdrawn": e.withdrawn_ms is not None} for e in snap.entrants
        ],
        "boards": [
            {
                "board": b.board,
                "seed_hash": b.seed_hash,
                "complete": b.board in complete,
                "seed": b.seed if b.board in complete else None,
                "field": [
                    {
                        "seat": f.seat,
                        "table": f.table,
                        "username": None if f.entrant is None else names.get(f.entrant, "?"),
                        "total": f.total,
                        "matchpoints": f.matchpoints,
                        "difference": f.difference,
                    }
                    for f in scores
                    if f.board == b.board
                ],
            }
            for b in snap.boards
        ],
        "tables": tables,
        "standings": [
            {
                "place": s.place,
                "username": names.get(s.entrant, "?"),
                "score": s.score,
                "tiebreak": s.tiebreak,
                "played": s.played,
            }
            for s in standings_of(snap)
        ],
        "you": {
            "registered": entry is not None and entry.withdrawn_ms is None,
            "organiser": reader is not None and reader == event.organiser_id,
            "room_id": mine[0] if mine else None,
        },
    }


def results_csv(snap: Snapshot) -> str:
    """The event's results as CSV: the standings, then every counted seat's total
    (a duplicate board's only once it is complete)."""
    shown = page(snap, None)
    out = io.StringIO()
    rows = csv.writer(out, lineterminator="\n")
    rows.writerow(["place", "username", "score", "tiebreak", "played"])
    for row in shown["standings"]:
        rows.writerow([row["place"], row["username"], row["score"], row["tiebreak"], row["played"]])
    rows.writerow([])
    stage = "board" if shown["format"] == "duplicate" else "round"
    rows.writerow([stage, "table", "seat", "username", "total"])
    for t in shown["tables"]:
        for seat in t["seats"]:
            if seat["total"] is not None:
                name = "(bot)" if seat["bot"] else seat["username"]
                rows.writerow([t["stage"], t["table"], seat["seat"], name, seat["total"]])
    return out.getvalue()
