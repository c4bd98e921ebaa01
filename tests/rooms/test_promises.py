"""Promises of the room service that small bugs break silently (each of these was
planted once in a copy of the code and passed the suite of the day), each checked
on every store it concerns: in memory, SQLite and PostgreSQL, or the databases alone
for what only a database does:

- the commitment shown while a deal is played is SHA-256 of the seed revealed
  when it ends, never the seed itself;
- a play sent again with its id is answered with the seq of the original move, even
  long after (from the database);
- no connection receives a patch for a move whose commit lost a conflict.
"""

from __future__ import annotations

import hashlib
import json
import random
from array import array
from typing import Any

import jsonpatch
import pytest

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain import played_ids
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.results import PlayAnswer
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService, ServiceError
from app.rooms.settings import ServiceSettings
from app.rooms.store import RoomStore
from tests.conftest import open_store, run_async


class Viewer:
    """A connection's outgoing side that keeps the view, as a browser does."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.messages: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "snapshot":
            self.view, self.seq = msg["view"], msg["seq"]
        elif msg["type"] == "patch":
            assert msg["seq"] == self.seq + 1, "patches follow one another"
            self.view = jsonpatch.apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]

    def close(self, code: int) -> None:
        pass


def _service(store: RoomStore) -> RoomService:
    return RoomService(
        store, MemoryBroker(), ServiceSettings(default_bot_delay=0, bots_only_delay=0)
    )


async def _two_seated(service: RoomService) -> tuple[str, Viewer, Viewer, Viewer]:
    room = await service.execute(NewRoom(2, "Ann", RuleSet(single_pack=True), 0, RoomOptions()))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    viewers = (Viewer(), Viewer(), Viewer())
    for seat, v in zip((0, 1, None), viewers):
        await service.connect(rid, seat, v, None)
    return (rid, *viewers)


async def commitment_is_not_the_seed(url: str) -> None:
    async with open_store(url) as store:
        service = _service(store)
        try:
            await _commitment_is_not_the_seed(service)
        finally:
            await service.stop()


async def _commitment_is_not_the_seed(service: RoomService) -> None:
    rid, ann, bo, watcher = await _two_seated(service)
    shown = watcher.view["commitment"]
    assert shown and len(shown) == 64
    rng = random.Random(3)
    while watcher.view["previous_deal"] is None:
        assert watcher.view["commitment"] == shown, "one commitment for the whole deal"
        seat = watcher.view["to_move"]
        move = rng.choice((ann, bo)[seat].view["legal"])
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))
    seed = watcher.view["previous_deal"]["seed"]
    assert seed != shown, "the commitment is not the seed"
    assert hashlib.sha256(seed.encode()).hexdigest() == shown
    assert watcher.view["previous_deal"]["commitment"] == shown
    replay = Viewer()
    for msg in watcher.messages:
        replay.send_text(json.dumps(msg))
        if seed in json.dumps(msg):
            assert replay.view["previous_deal"] is not None, (
                "the seed is shown only once the deal is over"
            )


def test_the_commitment_shown_is_the_hash_of_the_seed_revealed_after(store_url: str) -> None:
    run_async(commitment_is_not_the_seed(store_url))


async def duplicate_answers_with_the_original_seq(url: str) -> None:
    async with open_store(url) as store:
        service = _service(store)
        try:
            await _duplicate_answers_with_the_original_seq(service)
        finally:
            await service.stop()


async def _duplicate_answers_with_the_original_seq(service: RoomService) -> None:
    rid, ann, bo, _ = await _two_seated(service)
    seat = ann.view["to_move"]
    mover = (ann, bo)[seat]
    move = mover.view["legal"][0]
    first = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="once"))
    for _ in range(3):  # the room moves on
        s = ann.view["to_move"]
        m = (ann, bo)[s].view["legal"][0]
        await service.execute(PlayCard(rid, s, m["card"], m["take"]))
    again = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="once"))
    assert again == PlayAnswer(first.seq, duplicate=True)
    assert ann.seq == first.seq + 3, "and nothing was played again"


def test_a_resent_play_is_answered_with_the_original_moves_seq(store_url: str) -> None:
    run_async(duplicate_answers_with_the_original_seq(store_url))


async def no_patch_for_a_lost_write(url: str) -> None:
    """Two services on one database (as two processes, with no broker between them):
    one moves the room on; the other, not knowing, accepts a play at the old seq,
    loses the commit, and must send its connections no patch of that play."""
    async with open_store(url) as repo:
        here, there = _service(repo), _service(repo)
        try:
            await _no_patch_for_a_lost_write(repo, here, there)
        finally:
            await here.stop()
            await there.stop()


async def _no_patch_for_a_lost_write(
    repo: RoomStore, here: RoomService, there: RoomService
) -> None:
    rid, ann, bo, watcher = await _two_seated(here)
    far = Viewer()
    await there.connect(rid, None, far, None)
    seat = far.view["to_move"]
    moves = (ann, bo)[seat].view["legal"]
    quick, late = moves[0], moves[-1]
    stored_first = PlayCard(rid, seat, quick["card"], quick["take"], play_id="quick")
    await there.execute(stored_first)
    before = [len(v.messages) for v in (ann, bo, watcher)]
    try:
        await here.execute(PlayCard(rid, seat, late["card"], late["take"], play_id="late"))
    except ServiceError as exc:
        assert exc.code == "not_your_turn"
    stored = await repo.load_state(rid)
    assert stored is not None and stored.played_ids.recent_seq(f"{seat}:quick") == stored.seq
    assert stored.played_ids.recent_seq(f"{seat}:late") is None
    for v, n in zip((ann, bo, watcher), before):
        for msg in v.messages[n:]:
            assert msg["type"] in ("snapshot", "patch")
            assert msg["seq"] <= stored.seq, "nothing beyond what is stored"
        assert v.seq == stored.seq, "brought up to the stored seq"
    assert ann.view == stored.view(0) and watcher.view == stored.view(None)
    assert watcher.view["log"][-1]["card"] == quick["card"]
    # The loser reloaded the room once, at once, and is in step again: its next
    # write needs no reload and no recovery task was started for a lost race.
    rt = await here.runtime(rid)
    assert (here.stats.conflicts, here.stats.recoveries) == (1, 1)
    assert not rt.stale and rt.recovery is None and rt.state.seq == stored.seq
    nxt = rt.state.to_move
    assert nxt is not None
    move = rt.state.view(nxt)["legal"][0]
    ack = await here.execute(PlayCard(rid, nxt, move["card"], move["take"], play_id="next"))
    assert ack == PlayAnswer(stored.seq + 1, duplicate=False)
    assert (here.stats.conflicts, here.stats.recoveries) == (1, 1)
    assert ann.seq == watcher.seq == stored.seq + 1


def test_no_connection_gets_a_patch_for_a_write_that_lost(database_url: str) -> None:
    run_async(no_patch_for_a_lost_write(database_url))


async def old_resends_from_the_database(url: str) -> None:
    """A resend of a play older than the ids the room keeps whole is answered from the
    database; an id that only shares a hash with an old play's is played as new."""
    async with open_store(url) as repo:
        service = _service(repo)
        try:
            await _old_resends_from_the_database(service)
        finally:
            await service.stop()


async def _old_resends_from_the_database(service: RoomService) -> None:
    rid, ann, bo, watcher = await _two_seated(service)
    seat = ann.view["to_move"]
    move = (ann, bo)[seat].view["legal"][0]
    first = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="early"))
    for n in range(4 * played_ids.RECENT):  # the room moves on
        s = ann.view["to_move"]
        m = (ann, bo)[s].view["legal"][0]
        await service.execute(PlayCard(rid, s, m["card"], m["take"], play_id=f"later-{n}"))
    state = (await service.runtime(rid)).state
    assert state.played_ids.recent_seq(f"{seat}:early") is None, "no longer kept whole"
    assert state.played_ids.maybe_older(f"{seat}:early")
    seq = ann.seq
    again = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="early"))
    assert again == PlayAnswer(first.seq, duplicate=True)
    assert ann.seq == watcher.seq == seq, "nothing was played again"
    # An id whose hash an old play's shares (planted: 64-bit hashes do not collide
    # by chance here): the database has no such play, so it is a new one.
    s = ann.view["to_move"]
    planted = array("q", [hash(f"{s}:lucky")])
    state.played_ids._runs.append(planted)
    assert state.played_ids.maybe_older(f"{s}:lucky")
    m = (ann, bo)[s].view["legal"][0]
    new = await service.execute(PlayCard(rid, s, m["card"], m["take"], play_id="lucky"))
    assert new == PlayAnswer(seq + 1, duplicate=False)
    assert watcher.seq == seq + 1 and watcher.view["log"][-1]["card"] == m["card"]


def test_a_resend_too_old_for_memory_is_answered_from_the_database(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(played_ids, "RECENT", 4)
    run_async(old_resends_from_the_database(database_url))
