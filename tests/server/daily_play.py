"""Playing the deal of the day through a real server's WebSocket, for the tests of it
(tests/server/test_daily.py, tests/browser/test_daily.py): the person's seat is played
to the deal's end by a chooser of moves, the bots answering by themselves."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from tests import fetch

from .harness import Client, ServerProcess

KEYS = {name: hashlib.sha256(name.encode()).hexdigest()[:32] for name in ("ann", "bo", "cy")}
"""Player keys (base64url of 32 characters) of the tests' people."""

Choose = Callable[[dict[str, Any], int], dict[str, Any]]
"""(the view, how many plays of its own the person made) -> the next play."""


def start_daily(base_url: str, players: int, who: str) -> Any:
    """POST /api/daily/{players} as ``who`` (their key, their name)."""
    return fetch.post(
        f"{base_url}/api/daily/{players}",
        json={"name": who.capitalize()},
        headers={"X-Player-Key": KEYS[who]},
        timeout=20,
    )


def my_turn_or_over(c: Client) -> bool:
    v = c.view
    if v is None:
        return False
    if v["status"] != "playing" or v["deal_over"]:
        return True
    return v["to_move"] == v["you"] and bool(v["legal"])


async def play_out(
    server: ServerProcess | Any, room: dict[str, Any], choose: Choose
) -> list[dict[str, Any]]:
    """Play the person's seat to the deal's end with ``choose``; their moves, in order."""
    c = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    mine: list[dict[str, Any]] = []
    try:
        while True:
            await c.wait_until(lambda: my_turn_or_over(c), timeout=180)
            v = c.view
            assert v is not None
            if v["status"] != "playing" or v["deal_over"]:
                return mine
            move = choose(v, len(mine))
            ack = await c.play(move["card"], move["take"])
            assert ack["type"] == "ack", ack
            mine.append({"card": move["card"], "take": move["take"]})
    finally:
        await c.close()


def first_legal(view: dict[str, Any], _: int) -> dict[str, Any]:
    return dict(view["legal"][0])


def last_legal(view: dict[str, Any], _: int) -> dict[str, Any]:
    return dict(view["legal"][-1])


def replaying(moves: list[dict[str, Any]]) -> Choose:
    """Play ``moves`` again, in order (each must be legal in the same position)."""

    def choose(view: dict[str, Any], i: int) -> dict[str, Any]:
        want = moves[i]
        legal = [{"card": m["card"], "take": m["take"]} for m in view["legal"]]
        assert want in legal, (i, want, legal)
        return want

    return choose
