"""Hostile names against a real server on SQLite and PostgreSQL (issue 46): look-alikes
of a seated player's name, of a bot's and of an account's are refused, each attack as
it was reported.  Names are compared by their skeletons (app/names.py): format
characters (zero-width spaces, soft hyphens, bidirectional marks) removed, white space
and case folded, and look-alike letters (Cyrillic "А" for Latin "A") folded by
Unicode's confusables data.  A name holding a bidirectional embedding, override or
isolate is refused outright (422 ``bad_request``): it changes what the table shows."""

from __future__ import annotations

import json
import secrets
from typing import Any

import httpx
import pytest

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess

ALICE_SPOOFS = ["Alice\u200b", "Ali\u00adce", "\u0410lice"]
"""A zero-width space, a soft hyphen, a Cyrillic capital A: each reads "Alice"."""
BOT_SPOOFS = ["B\u200bot 1", "B\u043et 1", "Strong bot", "Bot 1\u202e"]
"""A zero-width space, a Cyrillic o, a bot level's name, a right-to-left override."""
BIDI = "a name must not contain a bidirectional control (U+202E)"


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """Each test makes its own rooms and accounts and reads only those."""
    return shared_server


def make_room(server: ServerProcess, name: str, players: int = 4, bots: int = 0) -> httpx.Response:
    body = {"players": players, "name": name, "bots": bots, "rules": {}}
    return fetch.post(server.url + "/api/rooms", json=body, timeout=10)


def sit(server: ServerProcess, rid: str, name: str) -> httpx.Response:
    return fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": name}, timeout=10)


def refusal(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json().get("code", "")


def room_of(server: ServerProcess, name: str, players: int = 4, bots: int = 0) -> str:
    made = make_room(server, name, players, bots)
    assert made.status_code == 201, made.text
    return str(made.json()["room_id"])


async def chat_as(server: ServerProcess, rid: str, names: list[str]) -> list[dict[str, Any]]:
    """What a spectator gets back for one line under each name, in turn."""
    watcher = await Client(server.ws_url, rid, None).connect()
    answers = []
    try:
        await watcher.wait_for(lambda m: m["type"] == "snapshot")
        for name in names:
            watcher.errors.clear()
            await watcher.ws.send(json.dumps({"type": "chat", "name": name, "text": "it is me"}))
            answers.append(await watcher.wait_for(lambda m: m["type"] in ("chat", "error")))
    finally:
        await watcher.close()
    return answers


def chat_names(server: ServerProcess, rid: str) -> list[str | None]:
    lines = fetch.get(f"{server.url}/api/rooms/{rid}/chat", timeout=10).json()["messages"]
    return [line["name"] for line in lines]


def test_a_spectator_may_not_chat_under_a_look_alike_of_a_seated_player(
    server: ServerProcess,
) -> None:
    rid = room_of(server, "Alice", players=3, bots=1)  # Alice, a free seat, Bot 1
    answers = run_async(chat_as(server, rid, [*ALICE_SPOOFS, "B\u043et 1", "Cleo"]))
    for name, answer in zip([*ALICE_SPOOFS, "B\u043et 1"], answers):
        assert (answer["type"], answer.get("code")) == ("error", "name_reserved"), (name, answer)
    assert (answers[-1]["type"], answers[-1]["name"]) == ("chat", "Cleo")
    assert chat_names(server, rid) == ["Cleo"], "a refused line is not stored"


@pytest.mark.parametrize("name", BOT_SPOOFS)
def test_nobody_sits_under_a_look_alike_of_a_bots_name(server: ServerProcess, name: str) -> None:
    expected = (422, "bad_request") if "\u202e" in name else (422, "name_reserved")
    made = make_room(server, name, players=2, bots=1)
    assert refusal(made) == expected, made.text
    rid = room_of(server, "Ann", players=3, bots=1)
    taken = sit(server, rid, name)
    assert refusal(taken) == expected, taken.text
    if "\u202e" in name:
        assert taken.json()["message"] == BIDI


def test_an_override_that_reverses_a_name_into_a_bots_is_refused(server: ServerProcess) -> None:
    reversed_bot = "\u202e1 toB"  # shown as "Bot 1"
    assert refusal(make_room(server, reversed_bot, 2, 1)) == (422, "bad_request")
    rid = room_of(server, "Ann", players=3, bots=1)
    answers = run_async(chat_as(server, rid, [reversed_bot]))
    assert (answers[0]["type"], answers[0].get("code")) == ("error", "bad_request"), answers


def test_a_second_person_may_not_sit_under_a_seated_persons_name(server: ServerProcess) -> None:
    rid = room_of(server, "Alice")
    for name in ("alice", "ALICE", " A lice ", *ALICE_SPOOFS):
        taken = sit(server, rid, name)
        assert refusal(taken) == (422, "name_reserved"), (name, taken.text)
    seats = fetch.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()["seats"]
    assert [s["name"] for s in seats] == ["Alice", None, None, None], "nobody was seated"
    assert sit(server, rid, "Alicia").status_code == 201
    assert refusal(sit(server, rid, "Al\u0456cia")) == (422, "name_reserved")  # Cyrillic i


def register(server: ServerProcess, username: str) -> httpx.Response:
    with httpx.Client(base_url=server.url, timeout=20) as browser:
        body = {"username": username, "password": "correct horse"}
        return browser.post("/api/auth/register", json=body)


def test_an_account_username_look_alike_is_refused(server: ServerProcess) -> None:
    tail = "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(6))
    lola = f"lola_{tail}"
    assert register(server, lola).status_code == 201
    for look_alike in (f"1o1a_{tail}", f"L0LA_{tail}", f"lo1a_{tail}"):
        r = register(server, look_alike)
        assert refusal(r) == (409, "username_taken"), (look_alike, r.text)
    # Nobody else sits or chats as the account either, whatever the letters.
    for name in (f"l\u043ela_{tail}", f"lola_{tail}\u200b", f"1ola_{tail}"):
        made = make_room(server, name)
        assert refusal(made) == (422, "name_reserved"), (name, made.text)
    rid = room_of(server, "Cleo")
    answers = run_async(chat_as(server, rid, [f"LOLA\u00ad_{tail}"]))
    assert (answers[0]["type"], answers[0].get("code")) == ("error", "name_reserved"), answers


@pytest.mark.parametrize("name", BOT_SPOOFS)
def test_nobody_queues_for_a_game_under_a_bots_name(server: ServerProcess, name: str) -> None:
    """ "Find a game" seats its people under the names they queued with: a bot's name (or
    a bidirectional control) is refused at the ticket, not when its table forms."""
    expected = (422, "bad_request") if "\u202e" in name else (422, "name_reserved")
    body = {"players": 2, "name": name, "pace": "live", "bots_after": 30}
    queued = fetch.post(
        server.url + "/api/pairing", json=body, headers={"X-Player-Key": "k" * 24}, timeout=10
    )
    assert refusal(queued) == expected, queued.text
