"""The bot stream across server processes (issue 51): two processes share one
PostgreSQL; a bot's stream is open on B; a person on A sees it online, seats it by
name there, and B's stream tells the game (B heard of it from the database, not from
A); a challenge made on A is told on B's stream too.  A bot's third stream is
refused whichever process it asks, the two it holds being on the other."""

from __future__ import annotations

from tests.conftest import require_service

from .bot_streams import StreamReader
from .harness import ServerProcess, create_room
from .test_multiprocess import REDIS_URL, _redis_available
from .token_people import TOKEN_LIMITS, People


def test_a_stream_on_one_process_tells_a_game_seated_through_another(
    postgres_url: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    env = {**TOKEN_LIMITS, "REDIS_URL": REDIS_URL}
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    on_a, on_b = People(a), People(b)
    opened: list[StreamReader] = []
    try:
        _, bot = on_a.bot("Far")
        name = bot.get("/api/me").json()["username"]
        stream = StreamReader(b, bot.token)
        opened.append(stream)
        assert stream.status == 200, stream.body
        room = create_room(a.url, 2, rules={"match_deals": 1})
        rid = room["room_id"]
        seated = on_a.person("Host").post(
            f"/api/rooms/{rid}/bots", {"name": name, "token": room["token"]}
        )
        assert seated.status_code == 201, seated.text
        line = stream.next("game", room_id=rid)
        assert (line["seat"], line["code"]) == (1, room["code"])

        _, rival = on_a.bot("Near")
        rival_stream = StreamReader(a, rival.token)
        opened.append(rival_stream)
        made = rival.post("/api/bot/challenges", {"opponent": name, "players": 2})
        assert made.status_code == 201, made.text
        stream.next("challenge", id=made.json()["id"])

        opened.append(StreamReader(b, bot.token))
        assert opened[-1].status == 200, opened[-1].body
        third = StreamReader(a, bot.token)
        opened.append(third)
        assert (third.status, third.body["code"]) == (429, "too_many_streams")
    finally:
        for each in opened:
            each.close()
        on_a.close()
        on_b.close()
        a.stop()
        b.stop()
