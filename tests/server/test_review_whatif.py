"""What-ifs in a shared review (issue 31), over the game's WebSocket: the driver
branches off a finished deal at a step, plays other legal moves (the engine checks
them; each position comes with the expected points of every legal move), takes one
back and returns to the real line; the follower receives every change; illegal
branch moves and a follower's branch messages are refused and change nothing; the
room's seq and the deal's record never change."""

from __future__ import annotations

from typing import Any

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess
from .test_review import (
    error_of,
    finished_deal,
    key,
    review_messages,
    review_of,
    send,
    sqlite_server,
    two_processes,
)

__all__ = ["sqlite_server", "two_processes"]  # the review tests' server fixtures, shared


def branch_is(pred: Any) -> Any:
    return lambda r: r is not None and pred(r.get("branch"))


async def whatifs(server: ServerProcess) -> None:
    rid = await finished_deal(server)
    url = f"{server.url}/api/rooms/{rid}/matches/1/deals/1"
    record = fetch.get(url, timeout=10).json()
    real = fetch.get(url + "?positions=true", timeout=10).json()["positions"]
    ann = await Client(server.ws_url, rid, None).connect()
    bo = await Client(server.ws_url, rid, None).connect()
    for c in (ann, bo):
        await c.wait_for(lambda m: m["type"] == "snapshot")
    seq = ann.seq

    await send(ann, type="review_branch_play", card="2H", take=[])
    assert (await error_of(ann))["code"] == "no_review"
    await send(ann, type="review_start", match_no=1, deal_no=1, key=key(), name="Ann")
    await review_of(ann)
    await send(bo, type="review_join", key=key(), name="Bo")
    await review_of(ann, lambda r: len(r["participants"]) == 2)
    await send(ann, type="review_branch_play", card="2H", take=[])
    assert (await error_of(ann))["code"] == "no_branch"

    # The driver opens a what-if at step 3: everyone gets its position and moves.
    await send(ann, type="review_step", step=3)
    await review_of(bo, lambda r: r["step"] == 3)
    await send(bo, type="review_branch")
    assert (await error_of(bo))["code"] == "not_driver"
    await send(ann, type="review_branch")
    opened = [await review_of(c, branch_is(lambda b: b is not None)) for c in (ann, bo)]
    branch = opened[1]["review"]["branch"]
    opened_raw = review_messages(bo)[-1]
    assert branch["at"] == 3 and branch["moves"] == []
    position = branch["position"]
    assert position["step"] == 3 and position["table"] == real[3]["table"]
    assert position["hands"] == real[3]["hands"]
    legal = branch["legal"]
    assert legal and all(isinstance(m["expected"], float) for m in legal)
    assert {m["kind"] for m in legal} <= {"creep", "capture", "sweep", "double_sweep"}
    mover = position["to_move"]

    # Illegal moves are refused with the engine's code; a follower may not play.
    other = next(c for s, h in enumerate(position["hands"]) if s != mover for c in h)
    await send(ann, type="review_branch_play", card=other, take=[])
    assert (await error_of(ann))["code"] == "not_in_hand"
    await send(bo, type="review_branch_play", card=legal[0]["card"], take=legal[0]["take"])
    assert (await error_of(bo))["code"] == "not_driver"
    await send(ann, type="review_branch_play", card="ZZ")
    assert (await error_of(ann))["code"] == "not_in_hand"
    await send(ann, type="review_branch_play", card=legal[0]["card"], take=[other])
    assert (await error_of(ann))["code"] == "invalid_capture"

    await bo.drain(0.2)
    assert review_messages(bo)[-1] == opened_raw, "a refused move changes nothing"

    # A move the real deal did not make: everyone follows the branch.
    made = record["moves"][3]
    made_key = (made["card"], sorted(made.get("take") or []))
    choice = next((m for m in legal if (m["card"], sorted(m["take"])) != made_key), legal[0])
    await send(ann, type="review_branch_play", card=choice["card"], take=choice["take"])
    played = [
        await review_of(c, branch_is(lambda b: b and len(b["moves"]) == 1)) for c in (ann, bo)
    ]
    b1 = played[1]["review"]["branch"]
    assert b1["moves"] == [{"card": choice["card"], "take": sorted(choice["take"])}]
    assert b1["position"]["step"] == 4
    assert b1["position"]["move"]["card"] == choice["card"]
    assert choice["card"] not in b1["position"]["hands"][mover] or (
        position["hands"][mover].count(choice["card"]) == 2
    )
    assert played[1]["review"]["step"] == 3  # the real line stays where it branched
    if (choice["card"], sorted(choice["take"])) != made_key:
        assert (
            b1["position"]["table"] != real[4]["table"]
            or b1["position"]["hands"] != real[4]["hands"]
        )
    if b1["legal"]:
        first = b1["legal"][0]
        await send(ann, type="review_branch_play", card=first["card"], take=first["take"])
        await review_of(bo, branch_is(lambda b: b and len(b["moves"]) == 2))

    # Back one move, then back to the real line.
    await send(ann, type="review_branch_back")
    await review_of(bo, branch_is(lambda b: b and len(b["moves"]) == 1))
    await send(ann, type="review_return")
    returned = [await review_of(c, lambda r: r["branch"] is None) for c in (ann, bo)]
    assert returned[1]["review"]["step"] == 3
    await send(ann, type="review_branch_back")
    assert (await error_of(ann))["code"] == "no_branch"

    # A step on the real line leaves a what-if too.
    await send(ann, type="review_branch")
    await review_of(bo, branch_is(lambda b: b is not None))
    await send(ann, type="review_step", step=5)
    stepped = await review_of(bo, lambda r: r["step"] == 5)
    assert stepped["review"]["branch"] is None

    # Nothing of it is a move of the room: the seq and the record stand.
    await ann.drain(0.1)
    assert ann.seq == seq
    assert fetch.get(url, timeout=10).json()["moves"] == record["moves"]
    for c in (ann, bo):
        await c.close()


def test_the_driver_branches_plays_what_ifs_and_returns(sqlite_server: ServerProcess) -> None:
    run_async(whatifs(sqlite_server))


def test_a_what_if_reaches_the_follower_on_the_other_process(two_processes: Any) -> None:
    """The branch is part of the review's shared value (Redis): a follower connected to
    another server process follows it, and may not play in it."""
    a, b = two_processes

    async def check() -> None:
        rid = await finished_deal(a)
        driver = await Client(a.ws_url, rid, None).connect()
        follower = await Client(b.ws_url, rid, None).connect()
        for c in (driver, follower):
            await c.wait_for(lambda m: m["type"] == "snapshot")
        await send(driver, type="review_start", match_no=1, deal_no=1, key=key(), name="Ann")
        await review_of(follower, lambda r: r is not None)
        await send(follower, type="review_join", key=key(), name="Bo")
        await review_of(driver, lambda r: len(r["participants"]) == 2)
        await send(driver, type="review_branch")
        opened = await review_of(follower, branch_is(lambda b: b is not None))
        first = opened["review"]["branch"]["legal"][0]
        await send(follower, type="review_branch_play", card=first["card"], take=first["take"])
        assert (await error_of(follower))["code"] == "not_driver"
        await send(driver, type="review_branch_play", card=first["card"], take=first["take"])
        played = await review_of(follower, branch_is(lambda b: b and len(b["moves"]) == 1))
        assert played["review"]["branch"]["position"]["step"] == 1
        await send(driver, type="review_return")
        await review_of(follower, lambda r: r["branch"] is None)
        for c in (driver, follower):
            await c.close()

    run_async(check())
