"""The admin's index of every room (app/db/admin_reads.py) on real SQLite and
PostgreSQL: every status, newest activity first, paged, found by id, code or a
player's name, with LIKE's wildcards taken literally."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update

from app.db.admin_reads import admin_rooms
from app.db.migrate import upgrade
from app.db.models import Room
from app.db.repository import RoomRepository, Written
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed
from app.ops.room_index import MAX_LIMIT, RoomQuery
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import CLOSE, DEAL, MATCH, SEAT
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async

T0 = datetime(2026, 1, 1, tzinfo=UTC)
INJECTION = "x' OR '1'='1"


async def _room(
    repo: RoomRepository, n: int, names: list[str], status: str = "", closed: str | None = None
) -> str:
    """Room number ``n`` (its id and code follow from it) with these seats taken; with
    two names it starts its first deal; ``status`` "finished" ends it as stored."""
    room_id = f"{n:02d}" + "ab" * 15
    state = RoomState(room_id, f"QR{n:02d}ZZ", 2, RuleSet(), RoomOptions())
    await repo.create_room(state)
    events = [stored_event(i + 1, SEAT, seat=i, data={"name": nm}) for i, nm in enumerate(names)]
    if len(names) == 2:
        events.append(stored_event(3, MATCH, data={"match_no": 1, "first_dealer": 1, "players": 2}))
        deal = {"seed": new_seed(), "match_no": 1, "dealer": 1, "copies": 2, "players": 2}
        events.append(stored_event(4, DEAL, data={**deal, "deal_no": 1}))
    if closed is not None:
        events.append(stored_event(len(events) + 1, CLOSE, data={"reason": closed, "at": "now"}))
    for ev in events:
        state.apply(ev)
    if events:
        await repo.commit_events(room_id, 0, status or state.status, [Written(e) for e in events])
    async with repo.sessions() as s, s.begin():  # room n was last active n minutes after T0
        await s.execute(
            update(Room).where(Room.id == room_id).values(updated_at=T0 + timedelta(minutes=n))
        )
    return room_id


async def _scenario(url: str) -> dict[str, Any]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    try:
        ids = {
            "waiting": await _room(repo, 1, ["Ann"]),
            "playing": await _room(repo, 2, ["Åsa Berg", "Bo"]),
            "finished": await _room(repo, 3, ["Cy", "100%_sure"], status="finished"),
            "closed": await _room(repo, 4, ["Di", "Ed"], closed="maintenance"),
            "percent": await _room(repo, 5, ["Fa", "100 sure"]),
            "under": await _room(repo, 6, ["Gil", "a_b"]),
        }

        async def page(**kw: Any) -> dict[str, Any]:
            return dict(await admin_rooms(repo, RoomQuery(**kw)))

        async def found(q: str) -> list[str]:
            return [r["room_id"] for r in (await page(q=q))["rooms"]]

        out: dict[str, Any] = {"ids": ids, "all": await page()}
        out["by_status"] = {
            s: [r["room_id"] for r in (await page(status=s))["rooms"]]
            for s in ("waiting", "playing", "finished", "closed")
        }
        out["search"] = {
            q: await found(q)
            for q in (
                ids["playing"][:6],
                "qr03",
                "QR04ZZ",
                "berg",
                "ÅSA",
                "%",
                "_",
                "100%",
                "zzz",
                INJECTION,
            )
        }
        out["pages"] = [await page(limit=4), await page(limit=4, offset=4)]
        out["capped"] = await page(limit=MAX_LIMIT + 50)
        return out
    finally:
        if repo.writer is not None:
            repo.writer.close()
        await engine.dispose()


def test_every_room_is_listed_and_found_on_each_database(database_url: str) -> None:
    out = run_async(_scenario(database_url))
    ids = out["ids"]
    everything = out["all"]
    assert everything["total"] == 6 and everything["next_offset"] is None
    rows = everything["rooms"]
    newest_first = [
        ids[k] for k in ("under", "percent", "closed", "finished", "playing", "waiting")
    ]
    assert [r["room_id"] for r in rows] == newest_first
    by_id = {r["room_id"]: r for r in rows}
    playing = by_id[ids["playing"]]
    assert playing["status"] == "playing" and playing["code"] == "QR02ZZ"
    assert [(s["name"], s["bot"]) for s in playing["seats"]] == [("Åsa Berg", False), ("Bo", False)]
    assert (playing["match_no"], playing["deal_no"]) == (1, 1)
    assert playing["updated_at"].startswith("2026-01-01T00:02:00") and playing["closed"] is None
    assert playing["in_memory"] is False and playing["live"] is None
    waiting = by_id[ids["waiting"]]
    assert waiting["status"] == "waiting" and (waiting["match_no"], waiting["deal_no"]) == (0, 0)
    assert [s["name"] for s in waiting["seats"]] == ["Ann", None]
    assert by_id[ids["finished"]]["status"] == "finished"
    closed = by_id[ids["closed"]]
    assert closed["status"] == "closed" and closed["closed"]["reason"] == "maintenance"

    assert out["by_status"] == {
        "waiting": [ids["waiting"]],
        "playing": [ids["under"], ids["percent"], ids["playing"]],
        "finished": [ids["finished"]],
        "closed": [ids["closed"]],
    }
    search = out["search"]
    assert search[ids["playing"][:6]] == [ids["playing"]], "the start of an id"
    assert search["qr03"] == [ids["finished"]] and search["QR04ZZ"] == [ids["closed"]]
    assert search["berg"] == [ids["playing"]], "a part of a name, in any case"
    assert search["%"] == [ids["finished"]], "a % is a percent sign, not 'anything'"
    assert search["_"] == [ids["under"], ids["finished"]], "an _ is an underscore"
    assert search["100%"] == [ids["finished"]] and search["zzz"] == []
    assert search[INJECTION] == [], "a search is a bound parameter, never SQL"
    if database_url.startswith("postgresql"):
        assert search["ÅSA"] == [ids["playing"]], "PostgreSQL folds the case of any letter"

    first, second = out["pages"]
    assert first["total"] == second["total"] == 6
    assert [r["room_id"] for r in first["rooms"] + second["rooms"]] == newest_first
    assert first["next_offset"] == 4 and second["next_offset"] is None
    assert out["capped"]["limit"] == MAX_LIMIT
