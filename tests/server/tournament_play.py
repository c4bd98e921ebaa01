"""Playing a tournament's tables through a real server, as its people do: each signed-in
entrant opens their table's room with the hello's ``own`` (their session cookie) and
plays legal moves when it is their turn, until the event has no table for them.
Shared by tests/server/test_tournaments*.py."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from typing import Any

import httpx

from app.accounts.tokens import SESSION_COOKIE
from tests.waiting import wait_until

from .club_people import Member
from .harness import Client, ServerProcess, settle
from .test_own_seat import OwnClient


class Entrant(Member):
    def event(self, tid: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def enter(self, tid: str) -> httpx.Response:
        return self.post(f"/api/tournaments/{tid}/registrations")

    @property
    def session(self) -> str:
        found = self.http.cookies.get(SESSION_COOKIE)
        assert found, "signed in"
        return str(found)


def entrants(server: ServerProcess, count: int = 4) -> Iterator[list[Entrant]]:
    """``count`` signed-up people (a fixture's body: closed when the test is done)."""
    made = [Entrant(server, f"p{i}_{secrets.token_hex(3)}") for i in range(count)]
    try:
        yield made
    finally:
        for p in made:
            p.close()


def new_event(organiser: Entrant, **plan: Any) -> str:
    body = {"name": "Tuesday Kasino", "players": 2, **plan}
    r = organiser.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _to_move(c: Client) -> bool:
    v = c.view
    return bool(v and v["to_move"] is not None and v["you"] == v["to_move"] and v["legal"])


async def play_table(server: ServerProcess, people: list[Entrant], room_id: str, seed: int) -> None:
    """Everyone of ``people`` seated in the room plays random legal moves until its match
    is over (bots and stand-ins play the rest)."""
    rng = random.Random(seed)
    clients: list[Client] = []
    for p in people:
        c = await OwnClient(server, room_id, p.session).connect()
        await c.wait_for(lambda m: m["type"] == "snapshot")
        clients.append(c)
    try:
        while True:
            await settle(clients)
            view = clients[0].view
            assert view is not None
            if view["status"] == "finished":
                return
            mover = next((c for c in clients if _to_move(c)), None)
            if mover is None:  # a bot's (or a stand-in's) turn, or the next deal to come
                await clients[0].wait_seq(clients[0].seq + 1, timeout=60)
                continue
            move = rng.choice(mover.view["legal"])  # type: ignore[index]
            ack = await mover.play(move["card"], move["take"])
            assert ack["type"] == "ack", ack
    finally:
        for c in clients:
            await c.close()


def tables_in_play(people: list[Entrant], tid: str) -> dict[str, list[Entrant]] | None:
    """Each unfinished table's room with its people (those of ``people``), as the
    event's page lists them; None while a table's room is still being made (its
    people would find no table yet and stay away: the stand-in would play for them)."""
    event = people[0].event(tid)
    by_name = {p.name: p for p in people}
    rooms: dict[str, list[Entrant]] = {}
    for table in event["tables"]:
        if table["done"]:
            continue
        if table["room_id"] is None:
            return None
        seated = [by_name[s["username"]] for s in table["seats"] if s["username"] in by_name]
        rooms[table["room_id"]] = seated
    return rooms


def next_tables(people: list[Entrant], tid: str, played: set[str]) -> dict[str, list[Entrant]]:
    """The tables to play next: wait until every unfinished table has its room and one
    of them is not played yet (or the event has finished: none)."""
    found: dict[str, list[Entrant]] = {}

    def ready() -> bool:
        nonlocal found
        if people[0].event(tid)["state"] == "finished":
            found = {}
            return True
        rooms = tables_in_play(people, tid)
        if rooms is None:
            return False
        found = {room: seated for room, seated in rooms.items() if room not in played}
        return bool(found)

    wait_until(ready, 60, message="the event's next tables")
    return found
