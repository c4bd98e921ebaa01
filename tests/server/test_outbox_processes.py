"""The outbox over real server processes (issue 48): a process that committed the
end of a deal and of a match, and died before handing the events on, loses nothing:
the next process to start hands each to every subscriber once (the coach queues the
deal's analysis, the ratings and the deal of the day look at the match)."""

from __future__ import annotations

import random
from pathlib import Path

from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import WAITS_FOR_ANALYSES, ServerProcess, play_random, sql, two_players


def outbox(url: str, rid: str) -> list[tuple[str, bool]]:
    rows = sql(url, "SELECT kind, done FROM outbox_events WHERE room_id = :r ORDER BY id", r=rid)
    return [(str(kind), bool(done)) for kind, done in rows]


def handled(url: str, rid: str) -> list[tuple[str, str]]:
    rows = sql(
        url,
        "SELECT e.kind, h.subscriber FROM outbox_handled h "
        "JOIN outbox_events e ON e.id = h.event_id WHERE e.room_id = :r "
        "ORDER BY e.kind, h.subscriber",
        r=rid,
    )
    return [(str(k), str(s)) for k, s in rows]


def test_events_a_killed_process_committed_but_never_handed_on_are_handed_on_after(
    database_url: str, tmp_path: Path
) -> None:
    coach = {"COACH_ON_DEAL_END": "true", "COACH_SAMPLES": "2", "OUTBOX_POLL_SECONDS": "0.2",
             **WAITS_FOR_ANALYSES}  # fmt: skip
    a = ServerProcess(
        database_url, env={**coach, "OUTBOX_DISPATCH": "false"}, log_path=tmp_path / "a.log"
    ).start()
    try:

        async def play() -> str:
            rid, ann, bo = await two_players(a, rules={"single_pack": True, "match_deals": 1})
            await play_random([ann, bo], 500, random.Random(7))
            assert ann.view is not None and ann.view["status"] == "finished"
            for c in (ann, bo):
                await c.close()
            return rid

        rid = run_async(play())
        # the commit stored the events with the last play; nobody handed them on
        kinds = outbox(database_url, rid)
        assert ("deal_ended", False) in kinds and ("match_ended", False) in kinds, kinds
        assert all(not done for _, done in kinds)
    finally:
        a.kill9()
    assert sql(database_url, "SELECT count(*) FROM analyses WHERE room_id = :r", r=rid)[0][0] == 0

    b = ServerProcess(database_url, env=coach, log_path=tmp_path / "b.log").start()
    try:
        wait_until(
            lambda: all(done for _, done in outbox(database_url, rid)),
            60,
            message=lambda: f"every event handed on: {outbox(database_url, rid)}",
        )
        queued = sql(
            database_url, "SELECT match_no, deal_no FROM analyses WHERE room_id = :r", r=rid
        )
        assert [tuple(q) for q in queued] == [(1, 1)], "the deal's analysis, queued once"
        # (a turn notice or two beside them: tests/server/test_push_outbox.py)
        assert [h for h in handled(database_url, rid) if h[0] != "turn_changed"] == [
            ("deal_ended", "coach"),
            ("match_ended", "daily"),
            ("match_ended", "ratings"),
            ("match_ended", "tournaments"),  # no event's table: it counts nothing
        ]
    finally:
        b.stop()


def test_a_live_process_hands_its_own_events_on_at_once(server: ServerProcess) -> None:
    """A process hands on the events its own commits stored (they ring its doorbell)."""

    async def play() -> str:
        rid, ann, bo = await two_players(server, rules={"single_pack": True, "match_deals": 1})
        await play_random([ann, bo], 500, random.Random(8))
        for c in (ann, bo):
            await c.close()
        return rid

    rid = run_async(play())
    url = server.database_url
    wait_until(
        lambda: outbox(url, rid) and all(done for _, done in outbox(url, rid)),
        30,
        message=lambda: f"every event handed on: {outbox(url, rid)}",
    )
    assert [k for k, _ in outbox(url, rid)].count("match_ended") == 1
