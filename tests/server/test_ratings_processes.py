"""A rated match over two server processes (one PostgreSQL, one Redis): Ann plays on
one, Bob on the other, and both look for unrated matches twice a second (the
catch-up) while the process that commits the last play rates it.  The match is rated
once: one row, two results, one match on each rating."""

from __future__ import annotations

import random

from tests.conftest import require_service, run_async

from .harness import Client, ServerProcess, play_random, sql
from .process import looked_again
from .test_multiprocess import REDIS_URL, _redis_available
from .test_ratings import Person, _rated


def test_a_rated_match_on_two_processes_is_rated_once(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    env = {
        "REDIS_URL": REDIS_URL,
        "REGISTER_PER_HOUR": "0",
        "LEADERBOARD_MIN_MATCHES": "1",
        "RATINGS_CATCH_UP": "0.5",
    }
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        ann, bob = Person(a.url, "ann"), Person(b.url, "bob")
        room = ann.create()
        rid = room["room_id"]
        seat = bob.join(rid)

        async def play() -> None:
            clients = [
                await Client(a.ws_url, rid, room["token"]).connect(),
                await Client(b.ws_url, rid, seat["token"]).connect(),
            ]
            for c in clients:
                await c.wait_for(lambda m: m["type"] == "snapshot")
            await play_random(clients, 500, random.Random(5))
            assert clients[0].view is not None and clients[0].view["status"] == "finished"
            for c in clients:
                await c.close()

        run_async(play())
        anns, bobs = _rated(ann), _rated(bob)
        looked_again([a, b], "ratings")  # three more rounds of both processes' catch-up
        assert sql(postgres_url, "SELECT count(*) FROM rated_matches")[0][0] == 1
        assert sql(postgres_url, "SELECT count(*) FROM rating_results")[0][0] == 2
        assert ann.me()["ratings"]["2"]["matches"] == bob.me()["ratings"]["2"]["matches"] == 1
        assert anns["mu"] != bobs["mu"], "one pack: 21 points, no tie"
    finally:
        a.stop()
        b.stop()
