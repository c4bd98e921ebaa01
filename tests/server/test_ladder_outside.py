"""An outside bot on the ladder (issue 51): the example bot, listening on its event
stream, plays ladder packs against two built-in levels in the server's rooms.

A real server (admin token set, ladder of 2 players), a bot account and token made
over HTTP, ``random_bot.py --listen`` as a subprocess.  ``POST /api/admin/ladder/run``
plays 2 packs with ``outside:<name>,random,greedy``: both tables hold the bot (one
room per deal, 4 rooms), which plays them and exits after its 4 games.  Then
``GET /api/ladder`` counts the bot's packs and deals with an interval, the standings
recompute from ``GET /api/ladder/packs`` by test_ladder.py's own calculation, and
every published deal replays from its seed to its published scores."""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from tests import fetch
from tests.clients.outside import BotProcess
from tests.clients.test_listen_bot import bot_account
from tests.conftest import run_async
from tests.waiting import wait_until

from .bot_streams import StreamReader
from .harness import ServerProcess, krypkasino, sql
from .test_ladder import recompute, replay_deal

ADMIN = secrets.token_urlsafe(24)
PACKS = 2


@pytest.fixture
def server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    yield from ladder_server(database_url, tmp_path, LADDER_PLAYERS="2")


def run(server: ServerProcess, body: Any, token: str | None = ADMIN) -> httpx.Response:
    """POST /api/admin/ladder/run, through the test process's one client (tests/fetch.py):
    ``httpx.post`` built a client, and its TLS context, for every call (17 ms of CPU
    each here; this file made about 30 on each database, polls included)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return fetch.post(f"{server.url}/api/admin/ladder/run", json=body, headers=headers, timeout=20)


def online(server: ServerProcess, name: str, bot: BotProcess) -> bool:
    assert bot.proc.poll() is None, f"the bot exited:\n{bot.log()}"
    bots = fetch.get(f"{server.url}/api/bots", timeout=10).json()["bots"]
    return any(b["name"] == name and b["online"] for b in bots)


def finished_packs(server: ServerProcess) -> list[dict[str, Any]]:
    answer = fetch.get(f"{server.url}/api/ladder/packs?limit=100", timeout=10)
    assert answer.status_code == 200, answer.text
    packs: list[dict[str, Any]] = answer.json()["packs"]
    return packs


def test_the_example_bot_plays_ladder_packs_that_recompute_to_the_standings(
    server: ServerProcess, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    name, token = bot_account(server)
    ((account_id,),) = sql(
        server.database_url, "SELECT id FROM accounts WHERE username = :n", n=name
    )
    me = f"outside:{account_id}"
    games = str(PACKS * 2)
    bot = BotProcess("random_bot.py", server.url, None, tmp_path, "--listen", "--games", games,
                     "--token", token)  # fmt: skip
    try:
        wait_until(lambda: online(server, name, bot), 60, 0.1, "the bot's stream to open")
        entrants = f"outside:{name},random,greedy"
        # the command asks the server, whose rooms seat the bot
        done = krypkasino(server.database_url, "ladder", "run", "--packs", str(PACKS),
                          "--entrants", entrants, "--server", server.url,
                          env={"ADMIN_TOKEN": ADMIN})  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {
            "started": True,
            "packs": PACKS,
            "entrants": [f"outside:{name}", "random", "greedy"],
        }
        again = run(server, {"packs": 1})
        assert again.status_code == 202 and again.json()["started"] is False  # one run at a time
        summary = run_async(bot.finished(600))  # the bot's 4 games, one room per deal
        packs = wait_until(
            lambda: (found := finished_packs(server)) and len(found) == PACKS and found,
            120,
            0.2,
            "the ladder's packs to be stored",
        )
    finally:
        bot.stop()
    assert summary["status"] == "finished" and summary["errors"] == []
    # both packs hold the bot: (bot, random) and (bot, greedy), every hand played both ways
    assert [[e["entrant"] for e in p["entrants"]] for p in packs] == [
        [me, "random"],
        [me, "greedy"],
    ]
    assert all(p["entrants"][0]["kind"] == "outside" for p in packs)
    ladder = fetch.get(f"{server.url}/api/ladder", timeout=10).json()
    assert ladder["packs"] == PACKS
    expected = recompute(packs)
    assert set(expected) == {me, "random", "greedy"}
    assert [s["entrant"] for s in ladder["standings"]] == sorted(
        expected, key=lambda e: (round(expected[e]["relative_mean"], 4), e)
    )
    by_id = {s["entrant"]: s for s in ladder["standings"]}
    mine = by_id[me]
    assert (mine["kind"], mine["packs"], mine["deals"]) == ("outside", 2, 4)
    assert mine["low"] is not None and mine["low"] <= mine["relative_mean"] <= mine["high"]
    assert by_id["random"]["low"] is None  # one pack each: no interval yet
    for entrant, s in by_id.items():
        want = expected[entrant]
        assert (s["packs"], s["deals"]) == (want["packs"], want["deals"])
        for key in ("mean", "relative_mean", "low", "high"):
            if want[key] is None:
                assert s[key] is None
            else:
                assert math.isclose(s[key], want[key], rel_tol=1e-4, abs_tol=1e-3), (s, want)
    for listed in packs:  # every deal replays from the seed and moves to its scores
        pack = fetch.get(f"{server.url}/api/ladder/packs/{listed['id']}", timeout=10).json()
        assert len(pack["deals"]) == 2
        for record in pack["deals"]:
            totals = replay_deal(pack, record)
            assert totals == record["totals"]
            assert record["seats"] == pack["seatings"][record["deal"]]
            published = {
                (r["seat"], r["entrant"]): r["score"]
                for r in pack["results"]
                if r["deal"] == record["deal"]
            }
            assert published == {(seat, e): totals[seat] for seat, e in enumerate(record["seats"])}
        # the bot sat in a different seat in each deal of the pack
        assert [s.index(me) for s in pack["seatings"]] == [0, 1]


def ladder_server(database_url: str, tmp_path, **env: str) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    env = {
        "ADMIN_TOKEN_HASH": hashlib.sha256(ADMIN.encode()).hexdigest(),
        "LADDER_ENTRANTS": "random,greedy",
        **env,
    }
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop_soon()


@pytest.fixture
def server_of_three(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    yield from ladder_server(database_url, tmp_path, LADDER_PLAYERS="3")


@pytest.fixture
def quick_server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    yield from ladder_server(database_url, tmp_path, LADDER_PLAYERS="2", LADDER_TURN_SECONDS="0.5")


def seats_of_moves(pack: dict[str, Any], record: dict[str, Any]) -> list[int]:
    """The seat that made each move of a published deal (replayed from the pack's seed)."""
    rules = RuleSet.from_dict(pack["rules"])
    deal = Deal.from_pack(rules, pack["players"], 0, shuffled_pack(pack["seed"], rules.copies))
    seats = []
    for move in record["moves"]:
        seats.append(deal.to_move)
        deal.apply(move["card"], move["take"])
    return seats


def test_a_bot_that_never_plays_is_played_for_and_every_such_move_is_marked(
    quick_server: ServerProcess,
) -> None:
    """The bot's stream is open (it is online, so its table is played) but it never
    takes its seat: the clock and then the stand-in play for it, and the published
    deal marks each of those moves ``by``; the level's own moves carry no mark."""
    server = quick_server
    name, token = bot_account(server)
    ((account_id,),) = sql(
        server.database_url, "SELECT id FROM accounts WHERE username = :n", n=name
    )
    me = f"outside:{account_id}"
    stream = StreamReader(server, token)
    try:
        assert stream.status == 200, stream.body
        r = run(server, {"packs": 1, "entrants": f"outside:{name},random"})
        assert r.status_code == 202 and r.json()["started"] is True, r.text
        stream.next("game", 60)  # told, and never answered
        (listed,) = wait_until(lambda: finished_packs(server), 300, 0.2, "the pack")
    finally:
        stream.close()
    pack = fetch.get(f"{server.url}/api/ladder/packs/{listed['id']}", timeout=10).json()
    assert [e["entrant"] for e in pack["entrants"]] == [me, "random"]
    for record in pack["deals"]:
        assert replay_deal(pack, record) == record["totals"]
        mine = record["seats"].index(me)
        for seat, move in zip(seats_of_moves(pack, record), record["moves"], strict=True):
            if seat == mine:
                assert move.get("by") in ("clock", "standin"), move
            else:
                assert "by" not in move, move


def test_an_outside_bot_plays_a_table_beside_two_levels(
    server_of_three: ServerProcess, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """A table of three: the bot, random and greedy, one room per deal, each bot seat of
    the room at its own entrant's level (the rooms' stored ``seat_levels``)."""
    server = server_of_three
    name, token = bot_account(server)
    ((account_id,),) = sql(
        server.database_url, "SELECT id FROM accounts WHERE username = :n", n=name
    )
    me = f"outside:{account_id}"
    bot = BotProcess("random_bot.py", server.url, None, tmp_path, "--listen", "--games", "3",
                     "--token", token)  # fmt: skip
    try:
        wait_until(lambda: online(server, name, bot), 60, 0.1, "the bot's stream to open")
        r = run(server, {"packs": 1, "entrants": f"outside:{name},random,greedy"})
        assert r.status_code == 202 and r.json()["started"] is True, r.text
        summary = run_async(bot.finished(600))
        (listed,) = wait_until(lambda: finished_packs(server), 120, 0.2, "the pack")
    finally:
        bot.stop()
    assert summary["status"] == "finished" and summary["errors"] == []
    assert [e["entrant"] for e in listed["entrants"]] == [me, "random", "greedy"]
    pack = fetch.get(f"{server.url}/api/ladder/packs/{listed['id']}", timeout=10).json()
    assert len(pack["deals"]) == 3
    for record in pack["deals"]:
        assert replay_deal(pack, record) == record["totals"]
    assert [s.index(me) for s in pack["seatings"]] == [0, 1, 2]
    rows = sql(server.database_url, "SELECT options FROM rooms ORDER BY created_at")
    stored = [json.loads(o) if isinstance(o, str) else o for (o,) in rows]
    levels = [o["seat_levels"] for o in stored]
    want = [["" if e == me else e for e in seats] for seats in pack["seatings"]]
    assert levels == want, "each room's bots at their entrants' levels, the bot's seat none"


def account_of(server: ServerProcess, name: str) -> str:
    ((account_id,),) = sql(
        server.database_url, "SELECT id FROM accounts WHERE username = :n", n=name
    )
    return str(account_id)


def test_two_outside_bots_play_each_other_at_one_table(server: ServerProcess, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A table of two outside bots (no level at it): one room per deal, the first bot in
    seat order its maker and the other seated with it when it is made, each seat linked
    to its own bot account, so the room has no free seat for anyone else; both play
    their games over their own streams, and the pack is stored as any."""
    accounts = [bot_account(server) for _ in range(2)]
    ids = [f"outside:{account_of(server, name)}" for name, _ in accounts]
    for name, _ in accounts:
        (tmp_path / name).mkdir()
    bots = [
        BotProcess(
            "random_bot.py",
            server.url,
            None,
            tmp_path / name,
            "--listen",
            "--games",
            "2",
            "--token",
            token,
        )  # fmt: skip
        for name, token in accounts
    ]
    try:
        both_online = lambda: all(  # noqa: E731
            online(server, name, bot) for (name, _), bot in zip(accounts, bots, strict=True)
        )
        wait_until(both_online, 60, 0.1, "the bots' streams to open")
        entrants = ",".join(f"outside:{name}" for name, _ in accounts)
        r = run(server, {"packs": 1, "entrants": entrants})
        assert r.status_code == 202 and r.json()["started"] is True, r.text
        summaries = [run_async(bot.finished(600)) for bot in bots]
        (listed,) = wait_until(lambda: finished_packs(server), 120, 0.2, "the pack")
    finally:
        for bot in bots:
            bot.stop()
    for summary in summaries:
        assert summary["status"] == "finished" and summary["errors"] == [], summary
    assert [e["entrant"] for e in listed["entrants"]] == ids
    assert all(e["kind"] == "outside" for e in listed["entrants"])
    pack = fetch.get(f"{server.url}/api/ladder/packs/{listed['id']}", timeout=10).json()
    assert [s for s in pack["seatings"]] == [ids, ids[::-1]], "each bot in each seat once"
    for record in pack["deals"]:
        assert replay_deal(pack, record) == record["totals"]
        assert all("by" not in m for m in record["moves"]), "each bot played its own moves"
    rooms = sql(server.database_url, "SELECT id, options FROM rooms ORDER BY created_at")
    assert len(rooms) == 2
    names = {account_of(server, name): name for name, _ in accounts}
    for (room_id, options), seats in zip(rooms, pack["seatings"], strict=True):
        stored = json.loads(options) if isinstance(options, str) else options
        assert stored["seat_levels"] == ["", ""], "no built-in bot at the table"
        summary = fetch.get(f"{server.url}/api/rooms/{room_id}", timeout=10).json()
        assert [(s["name"], s["outside_bot"]) for s in summary["seats"]] == [
            (names[e.split(":")[1]], True) for e in seats
        ], "both seats taken at once, each by its own bot account"
        linked = sql(
            server.database_url,
            "SELECT seat, account_id FROM seats WHERE room_id = :r ORDER BY seat",
            r=room_id,
        )
        assert [(seat, f"outside:{a}") for seat, a in linked] == list(enumerate(seats))
    ladder = fetch.get(f"{server.url}/api/ladder", timeout=10).json()
    by_id = {s["entrant"]: s for s in ladder["standings"]}
    assert {e: (by_id[e]["packs"], by_id[e]["deals"]) for e in ids} == {e: (1, 2) for e in ids}


@pytest.fixture
def slow_server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    yield from ladder_server(database_url, tmp_path, LADDER_PLAYERS="2", LADDER_TURN_SECONDS="600")


def test_a_ladder_room_closed_mid_deal_fails_its_pack_at_once(slow_server: ServerProcess) -> None:
    """An admin closes the room while the bot's turn waits (its clock and grace are 600
    s): the run ends as soon as the ladder sees it, not when its 30 minutes run out,
    and the pack is not stored finished (it is played again from its seed later)."""
    server = slow_server
    name, token = bot_account(server)
    stream = StreamReader(server, token)
    try:
        assert stream.status == 200, stream.body
        r = run(server, {"packs": 1, "entrants": f"outside:{name},random"})
        assert r.status_code == 202 and r.json()["started"] is True, r.text
        room_id = stream.next("game", 60)["room_id"]
        headers = {"Authorization": f"Bearer {ADMIN}"}
        closed = fetch.post(f"{server.url}/api/admin/rooms/{room_id}/close",
                            json={"reason": "test"}, headers=headers, timeout=20)  # fmt: skip
        assert closed.status_code == 200, closed.text
        wait_until(  # the run is over: another may start
            lambda: run(server, {"packs": 1, "entrants": "random,greedy"}).json()["started"],
            60,
            0.1,
            "the run to end after its room closed",
        )
    finally:
        stream.close()
    rows = sql(server.database_url, "SELECT finished_ms FROM ladder_packs ORDER BY id")
    assert rows[0][0] is None, "the bot's pack is not finished"
    assert "closed before its deal ended" in server.log_path.read_text()


HOSTILE = [
    {},
    {"packs": 0},
    {"packs": 101},
    {"packs": "2"},
    {"packs": 1.5},
    {"packs": 1, "entrants": ""},
    {"packs": 1, "entrants": "random"},
    {"packs": 1, "entrants": "random,random"},
    {"packs": 1, "entrants": "random,wizard"},
    {"packs": 1, "entrants": "random,outside:"},
    {"packs": 1, "entrants": "x" * 401},
    {"packs": 1, "players": 4},
    {"packs": 1, "owner": "me"},
]


def test_running_the_ladder_needs_the_admin_token_and_good_input(server: ServerProcess) -> None:
    for token in (None, "wrong", ADMIN + "x"):
        r = run(server, {"packs": 1}, token)
        assert r.status_code == 401, (token, r.text)
        assert "code" in r.json()
    for body in HOSTILE:
        r = run(server, body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["code"] == "bad_request", (body, r.text)
    # an outside bot that does not exist (or is offline) is skipped: its only table
    # is not played, nothing is stored
    r = run(server, {"packs": 1, "entrants": "outside:nobody_here,random"})
    assert r.status_code == 202 and r.json()["started"] is True, r.text
    wait_until(
        lambda: run(server, {"packs": 1, "entrants": "outside:nobody_here,random"}).json()[
            "started"
        ],
        30,
        0.1,
        "the first run to end",
    )
    assert finished_packs(server) == []
    assert sql(server.database_url, "SELECT id FROM ladder_packs") == []
    # a bot account with no stream open is skipped: the pack is the anchors' table
    sleeper, _ = bot_account(server)
    entrants = f"outside:{sleeper},random,greedy"
    wait_until(lambda: run(server, {"packs": 1, "entrants": entrants}).json()["started"], 30,
               0.1, "the last run to end")  # fmt: skip
    (pack,) = wait_until(lambda: finished_packs(server), 60, 0.1, "the anchors' pack")
    assert [e["entrant"] for e in pack["entrants"]] == ["random", "greedy"]
    # the command alone has no rooms: it refuses an outside bot, or --server without
    # the admin token
    alone = krypkasino(server.database_url, "ladder", "run", "--entrants", "random,outside:x")
    assert alone.returncode == 2 and "--server" in alone.stderr
    untold = krypkasino(server.database_url, "ladder", "run", "--server", server.url,
                        env={"ADMIN_TOKEN": ""})  # fmt: skip
    assert untold.returncode == 2 and "ADMIN_TOKEN" in untold.stderr
    wrong = krypkasino(server.database_url, "ladder", "run", "--server", server.url,
                       env={"ADMIN_TOKEN": "wrong"})  # fmt: skip
    assert wrong.returncode == 1 and "unauthorized" in wrong.stdout


def test_without_an_admin_token_there_is_no_run(shared_server: ServerProcess) -> None:
    r = run(shared_server, {"packs": 1}, "anything")
    assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
