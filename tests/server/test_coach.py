"""The coach's analyses through real server processes, on SQLite and PostgreSQL.

A live deal is refused at every moment of it and nothing of it leaks (a rematch's
first deal too); a finished deal's analysis lines up with its record play for play;
two processes asked at once compute each analysis once and answer it alike; a
process killed -9 in the middle of an analysis leaves it to the next, which goes on
from the plays already stored, and the result survives restarts; and a room's
strong bot keeps every move's deadline while analyses run beside it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import (
    WAITS_FOR_ANALYSES,
    Client,
    ServerProcess,
    create_room,
    join,
    metric,
    settle_turn,
    sql,
    watch_until_finished,
)
from .test_history import cards_in

QUICK = {"COACH_SAMPLES": "2", "COACH_ON_DEAL_END": "true", **WAITS_FOR_ANALYSES}
"""Few worlds per play: these tests are about the plumbing, not the ratings."""


def analysis(server: ServerProcess, rid: str, m: int, n: int) -> Any:
    return fetch.get(f"{server.url}/api/rooms/{rid}/matches/{m}/deals/{n}/analysis", timeout=10)


def analysed(server: ServerProcess, rid: str, m: int, n: int, timeout: float = 120) -> Any:
    """The finished analysis, asked for until it is made."""

    def done() -> Any:
        r = analysis(server, rid, m, n)
        assert r.status_code in (200, 202), r.text
        if r.status_code == 202:
            body = r.json()
            assert body["status"] in ("queued", "running") and 0 <= body["done"] <= body["total"]
            return None
        return r.json()

    return wait_until(done, timeout, 0.2, "the analysis")


def record(server: ServerProcess, rid: str, m: int, n: int) -> Any:
    r = fetch.get(f"{server.url}/api/rooms/{rid}/matches/{m}/deals/{n}", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def bot_room(server: ServerProcess, **extra: Any) -> str:
    """A one-deal single-pack match bots played to its end; returns the room id."""
    room = create_room(
        server.url,
        2,
        bots=1,
        rules={"single_pack": True, "match_deals": 1},
        grace=0,
        bot_delay=0,
        **extra,
    )
    watch_until_finished(server.url, room["room_id"], 60)
    return str(room["room_id"])


def test_a_live_deal_is_refused_at_every_moment_and_a_finished_one_lines_up(
    database_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(database_url, env=QUICK, log_path=tmp_path / "server.log").start()
    try:
        run_async(_live_then_finished(server))
    finally:
        server.stop()


async def _live_then_finished(server: ServerProcess) -> None:
    room = create_room(server.url, 2, rules={"single_pack": True, "match_deals": 2})
    rid = room["room_id"]
    bo = join(server.url, rid, "Bo")
    clients = [await Client(server.ws_url, rid, t).connect() for t in (room["token"], bo["token"])]
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    rng = random.Random(31)
    refused = 0
    while True:
        view = await settle_turn(clients)
        if view["status"] != "playing":
            break
        live = view["deal_no"]
        r = analysis(server, rid, 1, live)
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "deal_not_over" and not cards_in(r.json())
        refused += 1
        assert analysis(server, rid, 1, live + 1).status_code == 404  # not dealt yet
        mover = clients[view["to_move"]]
        move = rng.choice(mover.view["legal"])
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
    assert refused >= 40  # every play of both deals was preceded by a refusal
    assert analysis(server, rid, 2, 1).status_code == 404
    # A rematch: match 2's first deal is live, match 1's deals stay analysable.
    for c in clients:
        await c.ws.send(json.dumps({"type": "rematch"}))
        await c.wait_until(lambda c=c: c.view["rematch"] is not None or c.view["match_no"] == 2)
    await clients[0].wait_until(lambda: clients[0].view["match_no"] == 2)
    r = analysis(server, rid, 2, 1)
    assert r.status_code == 409 and not cards_in(r.json())
    for c in clients:
        await c.close()
    assert analysis(server, "f" * 32, 1, 1).status_code == 404
    for n in (1, 2):
        body = analysed(server, rid, 1, n)
        moves = record(server, rid, 1, n)["moves"]
        assert [p["index"] for p in body["plays"]] == list(range(len(moves)))
        assert [(p["card"], sorted(p["take"])) for p in body["plays"]] == [
            (m["card"], sorted(m["take"])) for m in moves
        ]
        assert all(p["loss"] >= 0 for p in body["plays"])
        assert body["samples"] == 2 and set(body["thresholds"]) == {
            "inaccuracy",
            "mistake",
            "blunder",
        }
        assert sum(s["plays"] for s in body["seats"]) == len(moves)


def test_two_processes_compute_each_analysis_once_and_answer_alike(
    database_url: str, tmp_path: Path
) -> None:
    env = {**QUICK, "COACH_ON_DEAL_END": "false"}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = None
    try:
        rooms = [bot_room(a) for _ in range(3)]
        b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
        for rid in rooms:  # asked of both at once: both queue it, one row is made
            assert analysis(a, rid, 1, 1).status_code == 202
            assert analysis(b, rid, 1, 1).status_code in (200, 202)
        for rid in rooms:
            assert analysed(a, rid, 1, 1) == analysed(b, rid, 1, 1)
        name = "krypkasino_coach_analyses_total"
        assert metric(a, name) + metric(b, name) == len(rooms)
        rows = sql(database_url, "SELECT status, COUNT(*) FROM analyses GROUP BY status")
        assert [tuple(r) for r in rows] == [("done", len(rooms))]
    finally:
        a.stop()
        if b is not None:
            b.stop()


def test_an_analysis_survives_a_kill_and_goes_on_where_it_stopped(
    database_url: str, tmp_path: Path
) -> None:
    env = {"COACH_SAMPLES": "24", "COACH_ON_DEAL_END": "false", "COACH_LEASE_SECONDS": "2",
           **WAITS_FOR_ANALYSES}  # fmt: skip
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    try:
        rid = bot_room(a)
        assert analysis(a, rid, 1, 1).status_code == 202

        def started() -> int:
            body = analysis(a, rid, 1, 1).json()
            return int(body.get("done", 0)) if body["status"] == "running" else 0

        before = wait_until(started, 120, 0.05, "some plays to be rated")
    finally:
        a.kill9()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        assert analysis(b, rid, 1, 1).json()["done"] >= before  # nothing lost
        body = analysed(b, rid, 1, 1, timeout=240)
        total = len(record(b, rid, 1, 1)["moves"])
        assert len(body["plays"]) == total
        assert metric(b, "krypkasino_coach_plays_total") <= total - before  # it went on
        assert metric(b, "krypkasino_coach_analyses_total") == 1
    finally:
        b.stop()
    c = ServerProcess(database_url, env=env, log_path=tmp_path / "c.log").start()
    try:  # stored: the same answer after another restart, with nothing computed again
        assert analysed(c, rid, 1, 1, timeout=10) == body
        assert metric(c, "krypkasino_coach_plays_total") == 0
    finally:
        c.stop()


def test_a_rooms_strong_bot_keeps_its_deadlines_while_analyses_run(
    database_url: str, tmp_path: Path
) -> None:
    """A room's strong bot plays while analyses run, and what the analyses took from its
    moves is counted, not timed, so the test means the same on a loaded machine.

    Each strong move is due one budget after it is asked for; what could make it late
    is an analysis holding its worker or its CPU.  The analyses have their own worker
    process (a live move never queues behind one), and they begin no sampled world
    while a live move is in flight: each world begins with a look at the live flag
    (``steps``), a look that finds it set (``pauses``) means the world under way when
    a move was asked for, and the analysis then waits until no move is in flight.  So
    within a live move's time up to its deadline an analysis runs at most the one
    world it was in (milliseconds against a budget of a second): at most one pause
    per live period.  Analyses that went on thinking beside the moves would pause
    once per world of it (tests/core/test_processes.py shows that failing).
    """
    samples = 400
    env = {
        "COACH_SAMPLES": str(samples),
        "COACH_ON_DEAL_END": "false",
        "BOT_BUDGET": "1.0",
        "BOT_WORKERS": "1",
        "COACH_WORKERS": "1",
        **WAITS_FOR_ANALYSES,
    }
    server = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        finished = [bot_room(server) for _ in range(2)]  # greedy bots: quick
        assert metric(server, "krypkasino_coach_live_periods_total") == 0
        for rid in finished:
            assert analysis(server, rid, 1, 1).status_code == 202
        wait_until(
            lambda: analysis(server, finished[0], 1, 1).json().get("status") == "running",
            120,
            0.05,
            "an analysis to run",
        )
        first = analysis(server, finished[0], 1, 1).json()
        moves = metric(server, "krypkasino_bot_move_seconds_count")
        strong = bot_room(server, bot_level="strong")  # played while the analysis runs
        after = analysis(server, finished[0], 1, 1).json()
        assert first["status"] == "running" and after["status"] in ("running", "done")
        assert metric(server, "krypkasino_bot_move_seconds_count") - moves >= 20, "it played"
        assert record(server, strong, 1, 1)["moves"]
        periods = metric(server, "krypkasino_coach_live_periods_total")
        pauses = metric(server, "krypkasino_coach_pauses_total")
        # the analysis met the live moves: it found a move in flight at a world's start
        assert pauses >= 1
        # and ran no world of its own beside any of them past the one under way
        assert pauses <= periods, f"{pauses:g} pauses in {periods:g} live periods"
        # every world of the plays rated began with the look at the flag (so the counts
        # above cover all of the analysis's work): wait for a first chunk if need be
        rated = wait_until(
            lambda: metric(server, "krypkasino_coach_plays_total") or None,
            300,
            0.2,
            "a chunk of plays rated",
        )
        steps = metric(server, "krypkasino_coach_steps_total")
        assert steps >= rated * samples
        assert metric(server, "krypkasino_coach_pauses_total") <= metric(
            server, "krypkasino_coach_live_periods_total"
        )
    finally:
        server.stop()
