"""Every RoomStore keeps the same promises: the in-memory one (app/rooms/memory.py)
and the SQL repository on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.errors import Conflict
from app.db.migrate import upgrade
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine import scenario
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import DEAL, MATCH, PLAY, SEAT
from app.rooms.domain.records import deal_record
from app.rooms.domain.state import RoomOptions, RoomState
from app.rooms.memory import MemoryStore
from app.rooms.store import Written
from tests.conftest import _fresh_postgres, run_async


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def kind(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    if request.param == "memory":
        yield "memory"
    elif request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/k.db"
    else:
        yield from _fresh_postgres()


async def _open(kind: str) -> tuple[Any, Any]:
    if kind == "memory":
        return MemoryStore(), None
    await asyncio.to_thread(upgrade, kind)
    engine = make_engine(kind)
    return RoomRepository(make_sessionmaker(engine), make_writer(kind)), engine


async def _close(store: Any, engine: Any) -> None:
    if engine is not None:
        if store.writer is not None:
            store.writer.close()
        await engine.dispose()


async def contract(kind: str) -> None:
    store, engine = await _open(kind)
    try:
        state = RoomState("e" * 32, "VWXYZ2", 2, RuleSet(), RoomOptions())
        first = [
            stored_event(1, SEAT, seat=0, data={"name": "Ann"}, at=1),
            stored_event(2, SEAT, seat=1, data={"name": "Bo"}, at=2),
            stored_event(3, MATCH, data={"match_no": 1, "first_dealer": 0, "players": 2}, at=3),
            stored_event(
                4,
                DEAL,
                data={
                    "seed": new_seed(),
                    "match_no": 1,
                    "deal_no": 1,
                    "dealer": 0,
                    "copies": 2,
                    "players": 2,
                },
                at=4,
            ),
        ]
        for ev in first:
            state.apply(ev)
        await store.create_room(state, [Written(ev) for ev in first], "maker")
        with pytest.raises(Conflict):  # the same code again: nothing of it is stored
            await store.create_room(RoomState("f" * 32, "VWXYZ2", 2, RuleSet(), RoomOptions()))
        assert await store.load_state("f" * 32) is None
        assert await store.live_rooms("maker") == (1, 1)
        rng = random.Random(2)
        ids: list[str] = []
        while state.deal is not None and not state.deal.is_over:
            move = rng.choice(state.deal.legal_moves())
            ev = stored_event(
                state.seq + 1,
                PLAY,
                seat=state.deal.to_move,
                card=move.card,
                take=move.take,
                client_id=f"{state.deal.to_move}:{state.seq}",
                at=state.seq,
            )
            stale = state.seq
            ids.append(ev.client_id or "")
            state.apply(ev)
            written = Written(ev)
            if state.finished_deal is not None:
                written.finished_deal = state.finished_deal
                written.match_totals = {
                    "match_no": 1,
                    "cumulative": state.match.cumulative,
                    "deals_played": 1,
                    "finished": False,
                    "winners": None,
                }
            await store.commit_events(state.room_id, stale, state.status, [written])
            with pytest.raises(Conflict):  # a second writer that saw the same seq loses
                await store.commit_events(
                    state.room_id,
                    stale,
                    state.status,
                    [
                        Written(
                            stored_event(
                                stale + 1,
                                PLAY,
                                seat=ev.body.seat,
                                card=ev.body.card,
                                take=ev.body.take,
                            )
                        )
                    ],
                )
        with pytest.raises(Conflict):  # a client id is stored once per room
            await store.commit_events(
                state.room_id,
                state.seq,
                state.status,
                [Written(stored_event(state.seq + 1, PLAY, seat=0, card="AS", client_id=ids[0]))],
            )
        # A play's seq, looked up by its id (a resend too old for the room's memory).
        assert await store.play_seq(state.room_id, ids[0]) == 5
        assert await store.play_seq(state.room_id, ids[-1]) == state.seq
        assert await store.play_seq(state.room_id, "0:never") is None
        assert await store.play_seq("f" * 32, ids[0]) is None
        loaded = await store.load_state(state.room_id)
        assert loaded is not None and loaded.seq == state.seq
        assert loaded.view(0) == state.view(0)
        record = deal_record(await store.deal_record(state.room_id, 1, 1))
        replayed = scenario.run(
            {
                k: record[k]
                for k in ("rules", "players", "dealer", "hands", "table", "stock", "moves")
            }
        )
        assert [s["total"] for s in replayed["scores"]] == record["totals"], (
            "the stored deal replays to its stored scores"
        )
        assert (
            await store.events_after(state.room_id, state.seq - 2)
            == (await store.events_after(state.room_id, 0))[-2:]
        )
    finally:
        await _close(store, engine)


def test_every_store_keeps_the_same_promises(kind: str) -> None:
    run_async(contract(kind))
