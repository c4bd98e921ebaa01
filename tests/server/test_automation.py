"""Bots in rooms, the turn clock, and bots taking over absent players (over the WebSocket)."""

from __future__ import annotations

import random
import time

import pytest

from tests.conftest import run_async

from .harness import Client, ServerProcess, converge, create_room, sql, two_players


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


async def _settle(clients: list[Client], quiet: float = 0.05) -> None:
    for c in clients:
        await c.drain(quiet)


async def one_human_three_bots(server: ServerProcess) -> None:
    room = create_room(server.url, 4, bots=3, bot_delay=0)
    me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    await me.wait_for(lambda m: m["type"] == "snapshot")
    assert [s["bot"] for s in me.view["seats"]] == [False, True, True, True]
    rng = random.Random(5)
    my_moves = 0
    deadline = time.monotonic() + 240
    while me.view["status"] != "finished":
        assert time.monotonic() < deadline, "the match finishes"
        if me.view["to_move"] == 0 and me.view["legal"]:
            move = rng.choice(me.view["legal"])
            ack = await me.play(move["card"], move["take"])
            assert ack["type"] == "ack", ack
            my_moves += 1
        else:
            await me.recv(30)
    assert len(me.view["deal_totals"]) == 4
    assert all(sum(t) == 42 for t in me.view["deal_totals"])
    assert my_moves == 4 * 25, "the human played their 25 cards in each of 4 deals"
    assert me.errors == []
    await me.close()


def test_one_human_and_three_bots_play_a_whole_match(server: ServerProcess) -> None:
    run_async(one_human_three_bots(server))


async def take_over(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, grace=0.5, bot_delay=0.05)
    # Bo leaves in the middle of the deal
    await bo.close()
    last_seq = bo.seq
    rng = random.Random(2)
    bot_moves = 0
    while bot_moves < 3:
        if ann.view["to_move"] == 0 and ann.view["legal"]:
            move = rng.choice(ann.view["legal"])
            assert (await ann.play(move["card"], move["take"]))["type"] == "ack"
        else:
            msg = await ann.recv(15)
            if (
                msg["type"] == "patch"
                and ann.view["last_move"]
                and ann.view["last_move"]["seat"] == 1
            ):
                assert ann.view["seats"][1]["autoplay"], "the bot plays for the absent seat"
                bot_moves += 1
    # Bo comes back with the token, catches up from last_seq and takes the seat back
    assert bo.seq == last_seq
    await bo.connect(last_seq)
    await bo.wait_for(lambda m: m["type"] == "welcome")
    # the server gives the seat back with an event: wait for it, then for both to agree
    assert ann.view["seats"][1]["autoplay"] is True
    await ann.wait_until(lambda: ann.view["seats"][1]["autoplay"] is False)
    await converge([ann, bo])
    probe = await Client(server.ws_url, rid, bo.token).connect()
    await probe.wait_for(lambda m: m["type"] == "snapshot")
    await probe.close()
    assert (bo.seq, bo.view) == (probe.seq, probe.view), "caught up by patches"
    assert bo.patches > 0
    assert bo.view["seats"][1]["autoplay"] is False, "the returning player has the seat back"
    # play on: Bo's own moves are accepted again
    played = 0
    while played < 2 and ann.view["status"] == "playing":
        turn = ann.view["to_move"]
        mover = ann if turn == 0 else bo
        await _settle([ann, bo], 0.05)
        if mover.view["to_move"] != turn or not mover.view["legal"]:
            continue
        move = rng.choice(mover.view["legal"])
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
        if mover is bo:
            played += 1
    assert played == 2
    for c in (ann, bo):
        await c.close()


def test_absent_player_is_replaced_after_grace_and_takes_the_seat_back(
    server: ServerProcess,
) -> None:
    run_async(take_over(server))


async def clock(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, turn_clock=1.5)
    seat = ann.view["to_move"]
    assert ann.view["clock"]["seat"] == seat
    deadline = ann.view["clock"]["deadline"]
    log_len = len(ann.view["log"])
    await ann.wait_for(lambda m: m["type"] == "patch", timeout=10)
    timed_seq = ann.seq
    assert len(ann.view["log"]) == log_len + 1, "exactly one move"
    assert ann.view["log"][-1]["seat"] == seat
    assert ann.view["to_move"] != seat
    assert ann.view["seats"][seat]["autoplay"] is False, "the seat stays the player's"
    # the next player answers in time (its own clock runs too: answer first, then
    # look at the database): no second bot move for anyone
    nxt = ann if ann.view["to_move"] == 0 else bo
    await nxt.wait_seq(timed_seq)
    move = nxt.view["legal"][0]
    assert (await nxt.play(move["card"], move["take"]))["type"] == "ack"
    # When the timed move happened is what the server stored with it (its event's
    # time), not when this test's process got round to looking.
    [(written_at,)] = sql(
        server.database_url,
        "SELECT at_ms FROM events WHERE room_id = :r AND seq = :s",
        r=rid,
        s=timed_seq,
    )
    assert written_at >= deadline, "nothing happens before the clock's deadline"
    await ann.drain(0.1)
    assert [e["seat"] for e in ann.view["log"][log_len:]] == [seat, 1 - seat]
    for c in (ann, bo):
        await c.close()


def test_turn_clock_makes_a_bot_play_exactly_one_move(server: ServerProcess) -> None:
    run_async(clock(server))


async def server_shaped_ids(server: ServerProcess) -> None:
    """Ids the server gives its own moves (``srv:clock:<seq>``, and the first
    version's ``clock:<seq>``) are ordinary client ids when a client sends them: a
    player who plays under the id of the clock's next move for their own seat does
    not make that clock move a "duplicate", and the clock plays it."""
    rid, ann, bo = await two_players(server, turn_clock=3)  # time to answer on a busy machine
    clients = [ann, bo]
    for claimed in ("clock:{}", "srv:clock:{}"):
        await ann.drain(0.05)
        await bo.drain(0.05)
        seq = ann.seq
        me = ann.view["to_move"]
        mover, other = clients[me], clients[1 - me]
        # My next turn will be at seq + 2: I play now under the id of that turn's clock move.
        move = mover.view["legal"][0]
        ack = await mover.play(move["card"], move["take"], msg_id=claimed.format(seq + 2))
        assert ack["type"] == "ack" and ack["duplicate"] is False
        # The other player answers under the same id (ids are per seat).
        await other.drain(0.05)
        reply = other.view["legal"][0]
        answer = await other.play(reply["card"], reply["take"], msg_id=claimed.format(seq + 2))
        assert answer["type"] == "ack" and answer["duplicate"] is False
        # Now I do nothing: the clock plays my turn at seq + 2 all the same.
        await ann.wait_seq(seq + 3, timeout=15)
        assert ann.view["log"][-1]["seat"] == me, "the clock played for the idle player"
        assert ann.view["seats"][me]["autoplay"] is False
    assert ann.errors == [] and bo.errors == []
    for c in clients:
        await c.close()


def test_a_client_id_shaped_like_a_server_id_neither_blocks_nor_takes_the_clock(
    server: ServerProcess,
) -> None:
    run_async(server_shaped_ids(server))
