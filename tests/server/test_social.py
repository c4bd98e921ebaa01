"""Talking at the table and a fair clock (issue 12), over a real server's WebSocket:
chat and reactions, the host's spectator-chat switch, the between-deals pause, moves
the clock or a stand-in made marked for everyone, the time bank option."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, join, settle, sql, two_players


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


XSS = "<img src=x onerror=alert(1)>"


async def send(c: Client, **msg: Any) -> None:
    await c.ws.send(json.dumps(msg))


def is_chat(text: str) -> Any:
    return lambda m: m["type"] == "chat" and m["text"] == text


async def spectator(server: ServerProcess, rid: str) -> Client:
    watcher = await Client(server.ws_url, rid, None).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    return watcher


# ---------------------------------------------------------------------------- chat


async def chat_reaches_everyone(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    cy = await spectator(server, rid)
    await settle([ann, bo, cy])
    seqs = (ann.seq, bo.seq, cy.seq)
    await send(ann, type="chat", text=f"  {XSS}  ")
    for c in (ann, bo, cy):
        msg = await c.wait_for(is_chat(XSS))
        assert (msg["seat"], msg["name"]) == (0, "Ann"), "a player speaks under the seat's name"
        assert msg["spectator"] is False
        assert isinstance(msg["at"], int) and isinstance(msg["id"], int)
    await send(cy, type="chat", text="hello from the rail", name=XSS)
    for c in (ann, bo, cy):
        msg = await c.wait_for(is_chat("hello from the rail"))
        assert (msg["seat"], msg["name"]) == (None, XSS), "a spectator gives a name"
        assert msg["spectator"] is True, "and is marked as one"
    # ... but not a seated player's name, nor a bot's (issue 34).
    for name in ("ann", " BO ", "Bot 2", "Dator 1"):
        await send(cy, type="chat", text="it is me", name=name)
        refused = await cy.wait_for(lambda m: m["type"] == "error")
        cy.errors.clear()
        assert refused["code"] == "name_reserved", (name, refused)
    await send(bo, type="chat", text="x" * 301)
    refused = await bo.wait_for(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_message"
    await send(bo, type="chat", text="line\nbreak")
    assert (await bo.wait_for(lambda m: m["type"] == "error"))["code"] == "bad_message"
    await settle([ann, bo, cy])
    assert (ann.seq, bo.seq, cy.seq) == seqs, "chat never changes the room's seq"
    # Stored with the room, shown in its history; a new connection gets the latest lines.
    lines = fetch.get(f"{server.url}/api/rooms/{rid}/chat").json()["messages"]
    assert [(ln["seat"], ln["text"]) for ln in lines] == [(0, XSS), (None, "hello from the rail")]
    assert [ln["spectator"] for ln in lines] == [False, True]
    late = await Client(server.ws_url, rid, None).connect()
    backlog = await late.wait_for(lambda m: m["type"] == "chat_history")
    assert [m["text"] for m in backlog["messages"]] == [XSS, "hello from the rail"]
    for c in (ann, bo, cy, late):
        await c.close()


def test_chat_reaches_players_and_spectators_as_text_and_is_kept(server: ServerProcess) -> None:
    run_async(chat_reaches_everyone(server))


def test_no_one_takes_a_seat_under_a_bots_name(server: ServerProcess) -> None:
    for name in ("Bot 1", "bot2", "Robot 3", "MASKIN 4", "Dator"):
        r = fetch.post(server.url + "/api/rooms", json={"players": 2, "name": name, "bots": 1})
        assert r.status_code == 422 and r.json()["code"] == "name_reserved", (name, r.text)
    rid = create_room(server.url, 3)["room_id"]
    r = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Bot 1"})
    assert r.status_code == 422 and r.json()["code"] == "name_reserved", r.text
    assert join(server.url, rid, "Botilda")["seat"] == 1


async def chat_rate_limit(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    for i in range(10):
        await send(ann, type="chat", text=f"spam {i}")
    refusal = await ann.wait_for(lambda m: m["type"] == "error")
    assert refusal["code"] == "chat_rate_limited"
    for _ in range(6):
        await send(ann, type="react", emote="👍")
    await ann.wait_for(lambda m: m["type"] == "error" and m["code"] == "reaction_rate_limited")
    assert {e["code"] for e in ann.errors} == {"chat_rate_limited", "reaction_rate_limited"}
    lines = fetch.get(f"{server.url}/api/rooms/{rid}/chat").json()["messages"]
    assert 1 <= len(lines) < 10, "refused lines are not stored"
    # Another connection has its own budget.
    await send(bo, type="chat", text="still here")
    await ann.wait_for(is_chat("still here"))
    for c in (ann, bo):
        await c.close()


def test_chat_and_reactions_are_rate_limited_per_connection(server: ServerProcess) -> None:
    run_async(chat_rate_limit(server))


async def spectators_hidden(server: ServerProcess) -> None:
    room = create_room(server.url, 2)
    rid = room["room_id"]
    bo_token = join(server.url, rid, "Bo")["token"]
    ann = await Client(server.ws_url, rid, room["token"]).connect()
    bo = await Client(server.ws_url, rid, bo_token).connect()
    for c in (ann, bo):
        await c.wait_for(lambda m: m["type"] == "snapshot")
    cy = await spectator(server, rid)
    await send(bo, type="spectator_chat", on=False)
    assert (await bo.wait_for(lambda m: m["type"] == "error"))["code"] == "not_host"
    await send(ann, type="spectator_chat", on=False)
    await ann.wait_for(
        lambda m: m["type"] == "patch" and ann.view["options"]["spectator_chat"] is False
    )
    await send(cy, type="chat", text="only for the rail")
    await cy.wait_for(is_chat("only for the rail"))
    await send(ann, type="chat", text="players here")
    for c in (bo, ann):
        await c.wait_for(is_chat("players here"))
        assert not any("only for the rail" in raw for raw in c.received), (
            "players do not see spectators' chat the host hid"
        )
    again = await Client(server.ws_url, rid, bo_token).connect()  # Bo on a second tab
    backlog = await again.wait_for(lambda m: m["type"] == "chat_history")
    assert [m["text"] for m in backlog["messages"]] == ["players here"]
    lines = fetch.get(f"{server.url}/api/rooms/{rid}/chat").json()["messages"]
    assert [ln["text"] for ln in lines] == ["players here"], (
        "nor can a player read the hidden lines over HTTP while the match is played"
    )
    assert sql(
        server.database_url,
        "SELECT text, hidden FROM chat_messages WHERE room_id = :r ORDER BY id",
        r=rid,
    ) == [("only for the rail", True), ("players here", False)]
    await send(ann, type="spectator_chat", on=True)
    await ann.wait_for(
        lambda m: m["type"] == "patch" and ann.view["options"]["spectator_chat"] is True
    )
    await send(cy, type="chat", text="back again")
    await bo.wait_for(is_chat("back again"))
    for c in (ann, bo, cy, again):
        await c.close()


def test_host_hides_spectators_chat_from_players(server: ServerProcess) -> None:
    run_async(spectators_hidden(server))


async def reactions_and_watchers(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    cy = await spectator(server, rid)
    presence = await ann.wait_for(lambda m: m["type"] == "presence" and m.get("watching") == 1)
    assert presence["connected"] == [True, True]
    await send(bo, type="react", emote="👏")
    for c in (ann, cy):
        msg = await c.wait_for(lambda m: m["type"] == "reaction")
        assert (msg["seat"], msg["emote"]) == (1, "👏")
    await send(cy, type="react", emote="👏")
    assert (await cy.wait_for(lambda m: m["type"] == "error"))["code"] == "unauthorized"
    await send(bo, type="react", emote="<b>")
    assert (await bo.wait_for(lambda m: m["type"] == "error"))["code"] == "bad_message"
    await cy.close()
    await ann.wait_for(lambda m: m["type"] == "presence" and m.get("watching") == 0)
    for c in (ann, bo):
        await c.close()


def test_reactions_show_over_a_seat_and_players_see_how_many_watch(server: ServerProcess) -> None:
    run_async(reactions_and_watchers(server))


# ------------------------------------------------------------- the fair clock


async def play_when_mine(clients: list[Client], until: Any, rng: random.Random) -> None:
    """Play random legal moves for whichever client is to move until ``until()``; a
    refusal because the clock played first is fine."""
    while not until():
        top = max(c.seq for c in clients)
        for c in clients:
            await c.wait_seq(top)
        v = clients[0].view
        mover = v["to_move"]
        if (
            v["status"] == "playing"
            and mover is not None
            and clients[mover].view["legal"]
            and clients[mover].seq == clients[0].seq
        ):
            move = rng.choice(clients[mover].view["legal"])
            ack = await clients[mover].play(move["card"], move["take"])
            assert ack["type"] == "ack" or ack["code"] == "not_your_turn", ack
        elif not until():
            await clients[0].recv(30)
        for c in clients[1:]:
            await c.drain(0.01)


async def clock_waits_between_deals(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(
        server, rules={"single_pack": True, "match_deals": 2}, turn_clock=2, deal_pause=600
    )
    await play_when_mine([ann, bo], lambda: ann.view["deal_over"], random.Random(3))
    await settle([ann, bo])
    v = ann.view
    assert v["deal_no"] == 1 and v["to_move"] is None and v["clock"] is None
    assert v["between"]["ready"] == [] and v["between"]["deadline"] > time.time() * 1000
    ended = ann.seq
    await send(ann, type="continue")
    await ann.wait_for(lambda m: m["type"] == "patch" and ann.view["between"]["ready"] == [0])
    await send(ann, type="continue")  # twice is once
    # Bo reads the summary for longer than a turn clock: nothing is played meanwhile.
    await ann.drain(2.5)
    await bo.drain(0.01)
    assert ann.seq == ended + 1, "only Ann's ready event: no deal, no clock move"
    assert ann.view["deal_no"] == 1 and ann.view["clock"] is None
    pressed = int(time.time() * 1000)
    await send(bo, type="continue")
    await ann.wait_for(lambda m: ann.view["deal_no"] == 2)
    clock = ann.view["clock"]
    assert ann.view["between"] is None and clock is not None
    assert clock["deadline"] >= pressed + 2000 - 50, (
        "the new deal's first clock starts when the last player pressed Continue"
    )
    for c in (ann, bo):
        await c.close()


def test_no_clock_runs_between_deals_until_everyone_pressed_continue(server: ServerProcess) -> None:
    run_async(clock_waits_between_deals(server))


async def pause_runs_out(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(
        server, rules={"single_pack": True, "match_deals": 2}, deal_pause=1
    )
    await play_when_mine([ann, bo], lambda: ann.view["deal_over"], random.Random(4))
    assert ann.view["between"] is not None
    await ann.wait_for(lambda m: ann.view["deal_no"] == 2, timeout=30)
    assert ann.view["between"] is None and ann.view["to_move"] is not None
    for c in (ann, bo):
        await c.close()


def test_the_next_deal_starts_after_the_pause_without_continue(server: ServerProcess) -> None:
    run_async(pause_runs_out(server))


async def marked_moves(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(
        server, rules={"single_pack": True, "match_deals": 1}, turn_clock=2, grace=1, bot_delay=0
    )
    # Whoever is to move first does nothing: the clock plays for them.
    first = ann.view["to_move"]
    idle, other = (ann, bo) if first == 0 else (bo, ann)
    await other.wait_for(lambda m: other.view["last_move"] is not None, timeout=30)
    last = other.view["last_move"]
    assert (last["seat"], last["by"]) == (first, "clock")
    assert other.view["log"][0]["by"] == "clock"
    assert other.view["seats"][first]["played_for"] == [
        {"card": last["card"], "by": "clock", "deal_no": 1}
    ], "the player is told"
    # The idle player leaves: a stand-in bot plays for them, marked too.
    await idle.close()
    rng = random.Random(5)
    me = 1 - first
    while other.view["status"] != "finished":
        v = other.view
        if v["to_move"] == me and v["legal"]:
            move = rng.choice(v["legal"])
            ack = await other.play(move["card"], move["take"])
            assert ack["type"] == "ack" or ack["code"] == "not_your_turn", ack
        else:
            await other.recv(30)
    assert all("by" not in m for m in other.view["log"] if m["seat"] == me)
    back = await Client(server.ws_url, rid, idle.token).connect()
    await back.wait_for(lambda m: m["type"] == "snapshot")
    told = back.view["seats"][first]["played_for"]
    assert told and {m["by"] for m in told} <= {"clock", "standin"}
    assert "standin" in {m["by"] for m in told}, "a returning player is told what was played"
    record = fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/deals/1").json()
    marks = [m.get("by") for m in record["moves"]]
    assert marks[0] == "clock" and "standin" in marks
    await back.close()
    await other.close()


def test_moves_made_by_the_clock_or_a_stand_in_are_marked_in_log_and_record(
    server: ServerProcess,
) -> None:
    run_async(marked_moves(server))


async def time_bank(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, time_bank=60, time_increment=5)
    assert ann.view["banks"] == [60000, 60000]
    assert ann.view["options"]["time_bank"] == 60
    mover = [ann, bo][ann.view["to_move"]]
    seat = ann.view["to_move"]
    clock = ann.view["clock"]
    assert clock["seat"] == seat and clock["deadline"] > time.time() * 1000 + 50000
    move = mover.view["legal"][0]
    assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
    await settle([ann, bo])
    bank = ann.view["banks"][seat]
    assert 60000 < bank <= 65000, "the increment is added after the move"
    for c in (ann, bo):
        await c.close()


def test_a_time_bank_with_increment_is_kept_per_player(server: ServerProcess) -> None:
    run_async(time_bank(server))


def test_room_options_are_validated(server: ServerProcess) -> None:
    base = {"players": 2, "name": "Ann"}
    for bad in (
        {"time_bank": 60, "turn_clock": 20},
        {"time_increment": 5},
        {"time_bank": 5},
        {"deal_pause": -1},
        {"deal_pause": 601},
        {"public": "yes"},
    ):
        r = fetch.post(f"{server.url}/api/rooms", json={**base, **bad})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["code"] == "bad_request"


async def hidden_lines_after_the_match(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, rules={"single_pack": True, "match_deals": 1})
    cy = await spectator(server, rid)
    await send(ann, type="spectator_chat", on=False)
    await ann.wait_for(
        lambda m: m["type"] == "patch" and ann.view["options"]["spectator_chat"] is False
    )
    await send(cy, type="chat", text="whisper")
    await cy.wait_for(is_chat("whisper"))
    url = f"{server.url}/api/rooms/{rid}/chat"
    assert fetch.get(url).json()["messages"] == []
    await play_when_mine([ann, bo], lambda: ann.view["status"] == "finished", random.Random(8))
    lines = fetch.get(url).json()["messages"]
    assert [(ln["text"], ln["hidden"], ln["seat"]) for ln in lines] == [("whisper", True, None)]
    assert fetch.get(f"{server.url}/api/rooms/{'0' * 32}/chat").status_code == 404
    for c in (ann, bo, cy):
        await c.close()


def test_the_history_shows_hidden_spectator_lines_once_the_match_is_over(
    server: ServerProcess,
) -> None:
    run_async(hidden_lines_after_the_match(server))
