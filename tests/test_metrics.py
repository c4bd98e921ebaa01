"""/metrics of a real server process after some play: the process, collector and
platform series, and the game's own counters with the values the play implies."""

from __future__ import annotations

import json
import random

from prometheus_client.parser import text_string_to_metric_families

from tests import fetch
from tests.conftest import run_async
from tests.server.conftest import server  # noqa: F401  (the fixture)
from tests.server.harness import ServerProcess, finished_room, play_random, two_players


def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:  # noqa: F811
    text = fetch.get(server.url + "/metrics").text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_metrics_show_the_process_and_the_play(server: ServerProcess) -> None:  # noqa: F811
    bot_room = finished_room(server)  # bots played a whole single-pack deal

    async def play() -> int:
        rid, ann, bo = await two_players(server)
        moves = len(await play_random([ann, bo], 10, random.Random(7)))
        # a burst past the rate limit (burst 60): the refusals are counted
        for _i in range(80):
            await bo.ws.send(json.dumps({"type": "ping"}))
        await bo.drain(0.3)
        limited = sum(1 for e in bo.errors if e["code"] == "rate_limited")
        assert limited > 0
        m = scrape(server)
        assert m[("krypkasino_connections", ())] == 2
        assert m[("krypkasino_rate_limited_total", (("kind", "ws_message"),))] == limited
        for c in (ann, bo):
            await c.close()
        return moves

    moves = run_async(play())
    m = scrape(server)
    record = fetch.get(f"{server.url}/api/rooms/{bot_room['room_id']}/deals/1").json()
    bot_plays = len(record["moves"])  # every move of the bot room, as stored
    assert bot_plays >= 40, "both seats of the bot room were played by greedy bots"
    # A bot may choose a move the room has moved past by then (another event came
    # first): chosen >= played, and the timers count exactly what they played.
    assert m[("krypkasino_bot_moves_total", (("level", "greedy"),))] >= bot_plays
    # The bot seat's moves are ``bot``, those of the stand-in for the absent creator
    # ``standin`` (issue 12: marked as played for them).
    stand_in = sum(1 for mv in record["moves"] if mv.get("by") == "standin")
    assert 0 < stand_in < bot_plays
    assert m[("krypkasino_timer_moves_total", (("kind", "standin"),))] == stand_in
    assert m[("krypkasino_timer_moves_total", (("kind", "bot"),))] == bot_plays - stand_in
    assert m[("krypkasino_moves_total", ())] == moves + bot_plays
    if server.database_url.startswith("sqlite"):
        # Every move was committed on the loop (nothing else took SQLite's lock here);
        # seats and rooms go to the writer thread and are not counted.
        assert m[("krypkasino_sqlite_loop_writes_total", ())] >= moves + bot_plays
        assert m[("krypkasino_sqlite_loop_commits_total", ())] >= 1
        assert m[("krypkasino_sqlite_handed_over_total", ())] == 0
    else:
        assert ("krypkasino_sqlite_loop_writes_total", ()) not in m
    assert m[("krypkasino_move_seconds_count", ())] == moves + bot_plays
    assert m[("krypkasino_rooms", (("status", "playing"),))] == 1
    assert m[("krypkasino_rooms", (("status", "finished"),))] == 1
    assert m[("krypkasino_bots_thinking", (("level", "greedy"),))] == 0
    assert m[("krypkasino_strong_bot_queued", ())] == 0
    assert m[("process_resident_memory_bytes", ())] > 10_000_000
    assert m[("process_cpu_seconds_total", ())] > 0 and m[("process_open_fds", ())] > 3
    assert m[("python_gc_collections_total", (("generation", "0"),))] >= 0
    assert any(name == "python_info" for name, _ in m)
    assert bot_room["room_id"]


def test_move_times_count_each_move_in_the_first_bucket_that_holds_it() -> None:
    """A move of exactly a bucket's bound is in that bucket (Prometheus' ``le``), one
    over every bound only in +Inf; the sum is the seconds observed."""
    from prometheus_client import CollectorRegistry, generate_latest

    from app.metrics import MOVE_BUCKETS, MoveTimes

    times = MoveTimes()
    registry = CollectorRegistry()
    registry.register(times)
    for seconds in (0.0005, 0.001, 0.0011, 0.05, 2.0):
        times.observe(seconds)
    samples = {
        (s.name, s.labels.get("le")): s.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for s in family.samples
    }
    assert samples[("krypkasino_moves_total", None)] == 5
    assert samples[("krypkasino_move_seconds_bucket", "0.001")] == 2
    assert samples[("krypkasino_move_seconds_bucket", "0.0025")] == 3
    assert samples[("krypkasino_move_seconds_bucket", "0.025")] == 3
    assert samples[("krypkasino_move_seconds_bucket", "0.05")] == 4
    assert samples[("krypkasino_move_seconds_bucket", str(MOVE_BUCKETS[-1]))] == 4
    assert samples[("krypkasino_move_seconds_bucket", "+Inf")] == 5
    assert samples[("krypkasino_move_seconds_count", None)] == 5
    assert abs(samples[("krypkasino_move_seconds_sum", None)] - 2.0526) < 1e-9
