"""What a bot's token cannot do at the table (issue 51): read a hidden card, play out
of turn or a card it does not hold, or act beyond its scopes, against a real server.

A bot account's ``bot:play`` token takes a seat over HTTP; its socket is opened with
the token (``Authorization: Bearer``), as the Python client opens it; a second socket
of the same token holds no seat and watches.  Every raw message both receive over a
whole single-pack match is scanned for card codes that were hidden from them at that
moment (tests/server/test_hidden_cards.py's replay of the deal records); the bot's
plays out of turn and of cards it does not hold are refused with their codes and
change nothing; a ``read`` token's socket watches and cannot play.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from app.engine.cards import ALL_CODES
from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, settle_turn
from .test_hidden_cards import assert_no_leaks, replay_positions
from .token_people import People, Program, bearer, people_of


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """Each test makes its own accounts and rooms: one server of each kind serves all."""
    return shared_server


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


def bot_program(people: People, *scopes: str) -> Program:
    """A program holding a new bot account's token of ``scopes``."""
    return people.bot("Robo", *scopes)[1]


def seat_of_bot(server: ServerProcess, program: Program) -> tuple[str, dict[str, Any]]:
    """A person's single-pack room of two, its second seat taken by the bot's token:
    (room id, the person's room answer with its seat token)."""
    room = create_room(server.url, 2, rules={"single_pack": True, "match_deals": 1})
    taken = program.post(f"/api/rooms/{room['room_id']}/seats", {"name": "Robo"})
    assert taken.status_code == 201, taken.text
    return room["room_id"], {**room, "bot_token": taken.json()["token"]}


def a_card_not_in(hand: list[str]) -> str:
    return next(code for code in ALL_CODES if code not in hand)


def test_a_bot_token_never_reads_a_hidden_card_and_plays_only_its_own_turns(
    server: ServerProcess, people: People
) -> None:
    program = bot_program(people, "bot:play")
    room_id, room = seat_of_bot(server, program)
    headers = bearer(program.token)

    async def match() -> tuple[list[Client], dict[int, tuple[int, int]], int]:
        person = await Client(server.ws_url, room_id, room["token"]).connect()
        bot = await Client(server.ws_url, room_id, room["bot_token"], headers).connect()
        watcher = await Client(server.ws_url, room_id, None, headers).connect()
        everyone = [person, bot, watcher]
        for client in everyone:
            await client.wait_for(lambda m: m["type"] == "snapshot")
        position: dict[int, tuple[int, int]] = {}
        refused = 0
        rng = random.Random(5)
        while True:
            view = await settle_turn([watcher, person, bot])
            position[watcher.seq] = (view["deal_no"], len(view["log"]))
            if view["status"] == "finished":
                break
            seq = watcher.seq
            if view["to_move"] == 0 and bot.view is not None and bot.view["hand"]:
                # out of turn: refused, and nothing moved
                answer = await bot.play(bot.view["hand"][0], [])
                assert (answer["type"], answer["code"]) == ("error", "not_your_turn"), answer
                refused += 1
            if view["to_move"] == 1:
                # a card the bot does not hold: refused, and nothing moved
                answer = await bot.play(a_card_not_in(bot.view["hand"]), [])
                assert answer["type"] == "error", answer
                assert answer["code"] in ("not_in_hand", "illegal_move"), answer
                refused += 1
            await person.drain()
            assert person.seq == seq, "a refused play changed the room"
            mover = (person, bot)[view["to_move"]]
            move = rng.choice(mover.view["legal"])
            assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
        for client in everyone:
            await client.close()
        return everyone, position, refused

    everyone, position, refused = run_async(match())
    assert refused > 20, "the bot tried out of turn and a card it does not hold, every turn"
    states = replay_positions(server, room_id, 1)
    # seat 0: the person; seat 1: the bot's token; the token's second socket watches
    checked = assert_no_leaks(everyone, 2, position, states, copies=1)
    assert checked > 3 * 52, "every socket saw every play of the deal"
    assert everyone[2].view is not None and everyone[2].view.get("you") is None


def test_a_read_token_socket_watches_and_cannot_play(server: ServerProcess, people: People) -> None:
    reader = bot_program(people, "read")
    player = bot_program(people, "bot:play")
    room_id, room = seat_of_bot(server, player)

    async def watch() -> tuple[dict[str, Any], dict[str, Any], int, int]:
        person = await Client(server.ws_url, room_id, room["token"]).connect()
        await person.wait_for(lambda m: m["type"] == "snapshot")
        watcher = await Client(server.ws_url, room_id, None, bearer(reader.token)).connect()
        await watcher.wait_for(lambda m: m["type"] == "snapshot")
        seq = person.seq
        card = person.view["legal"][0]["card"] if person.view["to_move"] == 0 else ALL_CODES[0]
        answer = await watcher.play(card, [])
        await person.drain()
        view = dict(watcher.view or {})
        await watcher.close()
        await person.close()
        return answer, view, seq, person.seq

    answer, view, before, after = run_async(watch())
    assert answer["type"] == "error", answer
    assert view.get("you") is None and not view.get("hand"), "a watcher holds no hand"
    assert before == after, "the refused play changed nothing"


def test_a_flooding_bot_socket_is_closed_and_its_table_goes_on(
    server: ServerProcess, people: People
) -> None:
    """A bot's socket that floods is answered ``rate_limited`` and closed with 1008, as
    anyone's is: the server and the room go on, the person's socket untouched, and
    the bot may come back on a new socket and play its turns."""
    program = bot_program(people, "bot:play")
    room_id, room = seat_of_bot(server, program)
    headers = bearer(program.token)

    async def flood() -> None:
        person = await Client(server.ws_url, room_id, room["token"]).connect()
        bot = await Client(server.ws_url, room_id, room["bot_token"], headers).connect()
        for client in (person, bot):
            await client.wait_for(lambda m: m["type"] == "snapshot")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(500):
                await bot.ws.send('{"type":"ping"}')
            while True:
                await bot.recv(5)
        assert any(e["code"] == "rate_limited" for e in bot.errors)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        back = await Client(server.ws_url, room_id, room["bot_token"], headers).connect()
        await back.wait_for(lambda m: m["type"] == "snapshot")
        assert back.view is not None and back.view["you"] == 1, "its seat, on a new socket"
        for _ in range(4):  # two turns each: the table plays on
            view = await settle_turn([person, back])
            mover = (person, back)[view["to_move"]]
            move = mover.view["legal"][0]
            answer = await mover.play(move["card"], move["take"])
            assert answer["type"] == "ack", answer
        for client in (person, back):
            await client.close()

    run_async(flood())
    assert fetch.get(server.url + "/healthz").status_code == 200


def test_a_bot_reconnecting_without_end_is_refused_by_its_tokens_limit(
    server: ServerProcess, people: People
) -> None:
    """Each socket a token opens counts as one of its requests: a bot that connects and
    drops again and again is refused ``rate_limited`` (closed 1008) once its token's
    minute is spent, before its socket is let in; a person in the same room,
    and another bot's token, connect as before."""
    program = bot_program(people, "bot:play")
    calm = bot_program(people, "bot:play")
    room_id, room = seat_of_bot(server, program)
    headers = bearer(program.token)

    async def storm() -> int:
        for tries in range(1, 400):
            client = Client(server.ws_url, room_id, room["bot_token"], headers)
            try:
                await client.connect()
                first = await client.recv(10)
            except websockets.ConnectionClosed:
                first = client.errors[-1] if client.errors else {}
            await client.close()
            if first.get("type") == "error" or client.errors:
                refusal = (client.errors or [first])[-1]
                assert refusal["code"] == "rate_limited", refusal
                return tries
            assert first["type"] == "welcome", first
        raise AssertionError("400 sockets in a row were let in")

    async def others() -> None:
        person = await Client(server.ws_url, room_id, room["token"]).connect()
        other = await Client(server.ws_url, room_id, None, bearer(calm.token)).connect()
        for client in (person, other):
            await client.wait_for(lambda m: m["type"] == "snapshot")
            await client.close()

    tries = run_async(storm())
    assert tries > 10, "the first sockets of a minute are let in"
    run_async(others())
    assert fetch.get(server.url + "/healthz").status_code == 200
