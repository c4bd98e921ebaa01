"""No message to any connection ever carries a card its receiver may not see.

Every raw message to every connection (four players' and spectators') is
scanned over whole deals; afterwards each deal is replayed from its record to
know, at every seq, which cards lay in which hand and in the stock.  With a
single pack (V2) every code is unique, so any hidden code in a message is a
leak; with two packs a code is checked when both of its copies are hidden.
The ``previous_deal`` summary (last deal's award, public) is left out.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.engine.cards import ALL_CODES
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, join, settle_turn


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


CODES = set(ALL_CODES)
HISTORY_KEYS = ("/previous_deal", "/deal_totals")


def card_codes(obj: Any) -> Counter[str]:
    out: Counter[str] = Counter()
    if isinstance(obj, str):
        if obj in CODES:
            out[obj] += 1
    elif isinstance(obj, list):
        for x in obj:
            out += card_codes(x)
    elif isinstance(obj, dict):
        for v in obj.values():
            out += card_codes(v)
    return out


def message_codes(raw: str) -> Counter[str]:
    msg = json.loads(raw)
    if msg["type"] == "snapshot":
        view = dict(msg["view"])
        view.pop("previous_deal", None)
        view.pop("deal_totals", None)
        return card_codes(view)
    if msg["type"] == "patch":
        ops = [op for op in msg["ops"] if not op["path"].startswith(HISTORY_KEYS)]
        return card_codes(ops)
    return card_codes(msg)


async def play_and_record(
    server: ServerProcess, players: int, rules: dict[str, Any]
) -> tuple[str, list[Client], dict[int, tuple[int, int]]]:
    room = create_room(server.url, players, rules=rules)
    room_id = room["room_id"]
    tokens = [room["token"]] + [
        join(server.url, room_id, f"P{i}")["token"] for i in range(1, players)
    ]
    seated = [await Client(server.ws_url, room_id, t).connect() for t in tokens]
    watchers = [await Client(server.ws_url, room_id, None).connect() for _ in range(2)]
    everyone = seated + watchers
    position: dict[int, tuple[int, int]] = {}
    rng = random.Random(11)
    for c in everyone:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    while True:
        v = await settle_turn([watchers[0], *seated, watchers[1]])
        position[watchers[0].seq] = (v["deal_no"], len(v["log"]))
        if v["status"] == "finished":
            break
        mover = seated[v["to_move"]]
        move = rng.choice(mover.view["legal"])
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack"
    return room_id, everyone, position


def replay_positions(
    server: ServerProcess, room_id: str, deals: int
) -> dict[tuple[int, int], Deal]:
    states: dict[tuple[int, int], Deal] = {}
    for n in range(1, deals + 1):
        rec = fetch.get(f"{server.url}/api/rooms/{room_id}/deals/{n}").json()
        rules = RuleSet.from_dict(rec["rules"])
        for k in range(len(rec["moves"]) + 1):
            deal = Deal.from_position(
                rules, rec["players"], rec["dealer"], rec["hands"], rec["table"], rec["stock"]
            )
            for m in rec["moves"][:k]:
                deal.apply(m["card"], m["take"])
            states[(n, k)] = deal
    return states


def assert_no_leaks(
    everyone: list[Client],
    seated_count: int,
    position: dict[int, tuple[int, int]],
    states: dict[tuple[int, int], Deal],
    copies: int,
) -> int:
    checked = 0
    for idx, client in enumerate(everyone):
        seat = idx if idx < seated_count else None
        seq = None
        for raw in client.received:
            msg = json.loads(raw)
            seq = msg.get("seq", seq)
            if seq is None or seq not in position:
                continue
            deal = states.get(position[seq])
            if deal is None:
                continue
            hidden: Counter[str] = Counter()
            for s, hand in enumerate(deal.hands):
                if s != seat:
                    hidden.update(hand)
            hidden.update(deal.stock)
            fully_hidden = {c for c, n in hidden.items() if n == copies}
            leaked = set(message_codes(raw)) & fully_hidden
            assert not leaked, f"seat {seat} got hidden cards {leaked} at seq {seq}: {raw[:300]}"
            checked += 1
    return checked


def test_no_hidden_card_reaches_anyone_single_pack(server: ServerProcess) -> None:
    room_id, everyone, position = run_async(play_and_record(server, 2, {"single_pack": True}))
    states = replay_positions(server, room_id, 2)
    checked = assert_no_leaks(everyone, 2, position, states, copies=1)
    assert checked > 4 * 2 * 26  # every client saw every move of two whole deals


def test_no_hidden_card_reaches_anyone_four_players(server: ServerProcess) -> None:
    room_id, everyone, position = run_async(play_and_record(server, 4, {"match_deals": 2}))
    states = replay_positions(server, room_id, 2)
    checked = assert_no_leaks(everyone, 4, position, states, copies=2)
    assert checked > 6 * 2 * 100
