"""The repository on real SQLite and PostgreSQL: migrations, the version check, replay."""

from __future__ import annotations

import asyncio
import random

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.db.migrate import upgrade
from app.db.models import Base
from app.db.repository import Conflict, RoomRepository, Written
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import DEAL, MATCH, PLAY, SEAT, RoomEvent
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async


def run(coro):  # type: ignore[no-untyped-def]
    return run_async(coro)


async def _repo(url: str) -> tuple[RoomRepository, object]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    return RoomRepository(make_sessionmaker(engine), make_writer(url)), engine


def _seat(seq: int, seat: int, name: str) -> RoomEvent:
    return stored_event(seq, SEAT, seat=seat, data={"name": name})


async def _started_room(repo: RoomRepository) -> RoomState:
    """A 2-player room with both seats taken and the first deal started, committed."""
    state = RoomState("a" * 32, "ABCDEF", 2, RuleSet(), RoomOptions())
    await repo.create_room(state)
    events = [
        _seat(1, 0, "Ann"),
        _seat(2, 1, "Bo"),
        stored_event(3, MATCH, data={"match_no": 1, "first_dealer": 1, "players": 2}),
        stored_event(
            4,
            DEAL,
            data={
                "seed": new_seed(),
                "match_no": 1,
                "deal_no": 1,
                "dealer": 1,
                "copies": 2,
                "players": 2,
            },
        ),
    ]
    for ev in events:
        state.apply(ev)
    await repo.commit_events(state.room_id, 0, state.status, [Written(ev) for ev in events])
    return state


def test_migrations_create_exactly_the_models(database_url: str) -> None:
    async def check() -> list:
        repo, engine = await _repo(database_url)
        async with engine.connect() as conn:  # type: ignore[attr-defined]
            diff = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
        await engine.dispose()  # type: ignore[attr-defined]
        return diff

    assert run(check()) == []


def test_replaying_the_events_rebuilds_the_room(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _started_room(repo)
        rng = random.Random(4)
        for i in range(30):
            move = rng.choice(state.deal.legal_moves())
            ev = stored_event(
                state.seq + 1,
                PLAY,
                seat=state.deal.to_move,
                card=move.card,
                take=move.take,
                client_id=f"c{i}",
            )
            expected = state.seq
            state.apply(ev)
            await repo.commit_events(state.room_id, expected, state.status, [Written(ev)])
        loaded = await repo.load_state(state.room_id)
        assert loaded is not None and loaded.seq == state.seq
        for seat in (0, 1, None):
            assert loaded.view(seat) == state.view(seat)
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())


def test_a_writer_that_saw_an_old_seq_loses(database_url: str) -> None:
    """Two writers at the same seq: exactly one commit wins (the room's version check)."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _started_room(repo)
        move = state.deal.legal_moves()[0]
        ev = stored_event(
            state.seq + 1,
            PLAY,
            seat=state.deal.to_move,
            card=move.card,
            take=move.take,
            client_id="x",
        )
        results = await asyncio.gather(
            repo.commit_events(state.room_id, state.seq, "playing", [Written(ev)]),
            repo.commit_events(
                state.room_id,
                state.seq,
                "playing",
                [
                    Written(
                        stored_event(
                            ev.seq,
                            PLAY,
                            seat=ev.body.seat,
                            card=ev.body.card,
                            take=ev.body.take,
                            client_id="y",
                        )
                    )
                ],
            ),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Conflict", "NoneType"]
        assert len(await repo.events_after(state.room_id, state.seq)) == 1
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())


def test_a_client_id_is_committed_once(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _started_room(repo)
        move = state.deal.legal_moves()[0]
        first = stored_event(
            state.seq + 1,
            PLAY,
            seat=state.deal.to_move,
            card=move.card,
            take=move.take,
            client_id="same",
        )
        await repo.commit_events(state.room_id, state.seq, "playing", [Written(first)])
        again = stored_event(state.seq + 2, PLAY, seat=0, card="AS", client_id="same")
        with pytest.raises(Conflict):
            await repo.commit_events(state.room_id, state.seq + 1, "playing", [Written(again)])
        assert [e.seq for e in await repo.events_after(state.room_id, 0)][-1] == first.seq
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())


def test_a_room_is_stored_with_its_first_events_or_not_at_all(database_url: str) -> None:
    """Creating a room writes the room, its seats and its first events in one
    transaction: a failure leaves no room without the seat of whoever made it."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        made = RoomState("b" * 32, "GHJKMN", 2, RuleSet(), RoomOptions())
        seat = stored_event(1, SEAT, seat=0, data={"name": "Ann"}, at=1_700_000_000_123)
        made.apply(seat)
        await repo.create_room(made, [Written(seat)])
        loaded = await repo.load_state(made.room_id)
        assert loaded is not None and loaded.seats[0].name == "Ann"
        assert loaded.changed_at == 1_700_000_000_123, "event times are stored to the ms"
        # Same code, bad second event (its seq does not follow): nothing of it is stored.
        other = RoomState("c" * 32, "GHJKMN", 2, RuleSet(), RoomOptions())
        with pytest.raises(Conflict):
            await repo.create_room(other, [Written(seat)])
        assert await repo.load_state(other.room_id) is None
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())


def test_a_timer_lease_has_one_owner_until_it_runs_out(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _started_room(repo)
        rid = state.room_id
        assert await repo.take_lease(rid, "a", 1000, 5000) == (True, 5000)
        assert await repo.take_lease(rid, "b", 2000, 6000) == (False, 5000), "a holds it"
        assert await repo.renew_leases("a", [rid], 9000) == {rid}
        assert await repo.renew_leases("b", [rid], 9000) == set(), "b cannot renew a's lease"
        assert await repo.take_lease(rid, "b", 9001, 13001) == (True, 13001), "a's ran out"
        assert await repo.renew_leases("a", [rid], 20000) == set(), "a learns it lost it"
        await repo.release_leases("a", [rid])
        assert await repo.lease_of(rid) == ("b", 13001), "only the owner can release"
        await repo.release_leases("b", [rid])
        assert await repo.lease_of(rid) == (None, None)
        loaded = await repo.load_state(rid)
        assert loaded is not None and loaded.seq == state.seq, "leases are not events"
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())


_STATUS_LOG = {
    "sqlite": [
        "CREATE TABLE status_writes (status TEXT)",
        "CREATE TRIGGER log_status AFTER UPDATE OF status ON rooms"
        " BEGIN INSERT INTO status_writes VALUES (new.status); END",
    ],
    "postgresql": [
        "CREATE TABLE status_writes (status TEXT)",
        "CREATE FUNCTION log_status() RETURNS trigger AS $$"
        " BEGIN INSERT INTO status_writes VALUES (NEW.status); RETURN NEW; END $$"
        " LANGUAGE plpgsql",
        "CREATE TRIGGER log_status AFTER UPDATE OF status ON rooms"
        " FOR EACH ROW EXECUTE FUNCTION log_status()",
    ],
}
"""A trigger that logs every UPDATE naming ``rooms.status`` (it fires even when the
value stays the same, as the index entry is rewritten then too)."""


def test_a_write_sets_the_status_only_when_it_changes(database_url: str) -> None:
    """With ``stored_status`` an unchanged status is left out of the version check (on
    SQLite it cost one more page, its index's, in every move's commit); a changed one,
    or one whose stored value the writer does not know, is written."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _started_room(repo)
        async with engine.begin() as conn:  # type: ignore[attr-defined]
            for sql in _STATUS_LOG[engine.dialect.name]:  # type: ignore[attr-defined]
                await conn.exec_driver_sql(sql)

        async def commit(seq: int, status: str, stored: str | None) -> tuple[list, tuple]:
            ev = stored_event(seq, PLAY, seat=0, card="AS", client_id=f"id{seq}")
            await repo.commit_events(state.room_id, seq - 1, status, [Written(ev)], stored)
            async with engine.connect() as conn:  # type: ignore[attr-defined]
                log = (await conn.exec_driver_sql("SELECT status FROM status_writes")).all()
                room = (
                    await conn.exec_driver_sql(
                        f"SELECT seq, status FROM rooms WHERE id = '{state.room_id}'"
                    )
                ).one()
            return [r[0] for r in log], tuple(room)

        seq = state.seq
        assert await commit(seq + 1, "playing", "playing") == ([], (seq + 1, "playing"))
        assert await commit(seq + 2, "finished", "playing") == (
            ["finished"],
            (seq + 2, "finished"),
        )
        assert await commit(seq + 3, "finished", None) == (
            ["finished", "finished"],
            (seq + 3, "finished"),
        ), "an unknown stored status: written"
        with pytest.raises(Conflict):  # the version check holds without the status too
            await repo.commit_events(
                state.room_id,
                seq,
                "finished",
                [Written(stored_event(seq + 1, PLAY, seat=0, card="AS"))],
                "finished",
            )
        await engine.dispose()  # type: ignore[attr-defined]

    run(check())
