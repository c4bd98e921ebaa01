"""History that is never lost, on SQLite and PostgreSQL, through a real server process.

Two people play a two-deal match to its end, ask for a rematch and play the first
deal of the second match and a few moves of its next one.  Then every match and
every finished deal is read back: the records replay through the engine (and the
``krypkasino scenario`` command) to the stored scores, the served positions are
the engine's, and the deal in play is nowhere: not listed, 404, its seed in no
answer, and no card at all outside the records of finished deals.  The same
answers come back, byte for byte, after the server restarts.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from app.engine import scenario
from app.engine.cards import ALL_CODES
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, krypkasino, settle, settle_turn, sql, two_players

CODES = set(ALL_CODES)
RULES = {"single_pack": True, "match_deals": 2}


def cards_in(obj: Any) -> Counter[str]:
    out: Counter[str] = Counter()
    if isinstance(obj, str) and obj in CODES:
        out[obj] += 1
    elif isinstance(obj, list):
        for x in obj:
            out += cards_in(x)
    elif isinstance(obj, dict):
        for v in obj.values():
            out += cards_in(v)
    return out


async def play_one(clients: list[Client], rng: random.Random) -> None:
    """One random legal move by the seat to move (clients are seat 0, seat 1, ...)."""
    v = await settle_turn(clients)
    mover = clients[v["to_move"]]
    move = rng.choice(mover.view["legal"])
    ack = await mover.play(move["card"], move["take"])
    assert ack["type"] == "ack", ack


def scan_in_play(server: ServerProcess, database_url: str, rid: str, view: dict[str, Any]) -> int:
    """While a deal is in play: the match list names no card and not its seed, and the
    deal's record (with or without positions) is 404 without a card; returns checks."""
    m, n = view["match_no"], view["deal_no"]
    seed = sql(
        database_url,
        "SELECT seed FROM deals WHERE room_id = :r AND match_no = :m AND deal_no = :n",
        r=rid,
        m=m,
        n=n,
    )[0][0]
    listed = get(server, f"/api/rooms/{rid}/matches")
    assert not cards_in(listed.json()) and seed not in listed.text
    assert n not in [d["deal_no"] for d in listed.json()[m - 1]["deals"]]
    for path in (
        f"/api/rooms/{rid}/matches/{m}/deals/{n}?positions=true",
        f"/api/rooms/{rid}/deals/{n}",
    ):
        r = get(server, path)
        assert r.status_code == 404 and not cards_in(r.json()) and seed not in r.text
    return 3


async def two_matches(server: ServerProcess, database_url: str) -> tuple[str, dict[str, Any]]:
    """Match 1 played to its end, a rematch, match 2's first deal and 3 moves more;
    returns the room and Ann's last view.  Every few moves, the history is scanned for
    the deal in play."""
    rid, ann, bo = await two_players(server, rules=RULES)
    watcher = await Client(server.ws_url, rid, None).connect()
    everyone = [ann, bo, watcher]
    rng = random.Random(5)
    scans = 0
    while True:
        await settle_turn(everyone)
        if ann.view["status"] == "finished":
            break
        if len(ann.view["log"]) % 7 == 0:
            scans += scan_in_play(server, database_url, rid, ann.view)
        await play_one(everyone, rng)
    assert scans >= 3 * 2 * 7, "every deal scanned several times while in play"
    await ann.ws.send(json.dumps({"type": "rematch"}))  # offers ...
    await bo.ws.send(json.dumps({"type": "rematch"}))  # ... and Bo accepts (issue 33)
    await ann.wait_for(lambda m: ann.view is not None and ann.view["match_no"] == 2)
    while not (ann.view["deal_no"] == 2 and len(ann.view["log"]) >= 3):
        await play_one(everyone, rng)
    await settle(everyone)
    for c in everyone:
        assert c.errors == []
        await c.close()
    return rid, ann.view


def get(server: ServerProcess, path: str) -> httpx.Response:
    return fetch.get(server.url + path, timeout=10)


def replayed(record: dict[str, Any]) -> list[Deal]:
    """The engine's deal after 0, 1, ... moves of a record."""
    rules = RuleSet.from_dict(record["rules"])
    deal = Deal.from_position(
        rules,
        record["players"],
        record["dealer"],
        record["hands"],
        record["table"],
        record["stock"],
    )
    out = [deal]
    for _m in record["moves"]:
        deal = Deal.from_position(
            rules,
            record["players"],
            record["dealer"],
            record["hands"],
            record["table"],
            record["stock"],
        )
        for earlier in record["moves"][: len(out)]:
            deal.apply(earlier["card"], earlier["take"])
        out.append(deal)
    return out


def check_record(record: dict[str, Any], stored_pack: list[str]) -> None:
    """A finished deal's record replays to its stored scores, its positions are the
    engine's, and it holds the cards of its own pack only (each once, single pack)."""
    run = scenario.run(record)
    assert run["deal_over"] and run["error"] is None
    assert run["scores"] == record["scores"]
    assert [s["total"] for s in record["scores"]] == record["totals"]
    assert run["award"] == record["award"]
    assert hashlib.sha256(record["seed"].encode()).hexdigest() == record["commitment"]
    assert shuffled_pack(record["seed"], 1) == stored_pack
    positions = record["positions"]
    assert len(positions) == len(record["moves"]) + 1
    for k, (pos, deal) in enumerate(zip(positions, replayed(record))):
        assert pos["step"] == k
        assert pos["hands"] == [sorted(h, key=ALL_CODES.index) for h in deal.hands]
        assert pos["table"] == deal.table and pos["stock_count"] == len(deal.stock)
        assert pos["scores"] == deal.scores_list()
        assert pos["sweep_markers"] == [list(m) for m in deal.sweep_markers]
        if k:
            move = record["moves"][k - 1]
            assert pos["move"]["card"] == move["card"]
            assert sorted(pos["move"]["taken"]) == sorted(move["take"])
    assert positions[-1]["award"] == record["award"] and positions[-1]["deal_over"]
    assert positions[-1]["scores"] == record["scores"]


def test_both_matches_and_every_finished_deal_stay_readable(
    server: ServerProcess, database_url: str, tmp_path: Path
) -> None:
    rid, ann_view = run_async(two_matches(server, database_url))
    packs = {
        (m, d): pack
        for m, d, pack in sql(
            database_url, "SELECT match_no, deal_no, pack FROM deals WHERE room_id = :r", r=rid
        )
    }
    packs = {k: json.loads(v) if isinstance(v, str) else v for k, v in packs.items()}
    in_play_seed = sql(
        database_url,
        "SELECT seed FROM deals WHERE room_id = :r AND match_no = 2 AND deal_no = 2",
        r=rid,
    )[0][0]

    answers: dict[str, str] = {}

    def read_all() -> None:
        paths = [
            f"/api/rooms/{rid}/matches",
            f"/api/rooms/{rid}/matches/1",
            f"/api/rooms/{rid}/matches/2",
            f"/api/rooms/{rid}/matches/2?download=true",
            f"/api/rooms/{rid}/deals/1",
        ]
        paths += [
            f"/api/rooms/{rid}/matches/{m}/deals/{d}?positions=true"
            for m, d in ((1, 1), (1, 2), (2, 1))
        ]
        for path in paths:
            r = get(server, path)
            assert r.status_code == 200, (path, r.text)
            answers[path] = r.text
        for m, d in ((2, 2), (2, 3), (3, 1), (1, 3)):
            for suffix in ("", "?positions=true"):
                r = get(server, f"/api/rooms/{rid}/matches/{m}/deals/{d}{suffix}")
                assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
                answers[f"404 {m} {d}{suffix}"] = r.text
        assert get(server, f"/api/rooms/{rid}/deals/2").status_code == 404

    read_all()
    for path in (
        "/api/rooms/abc/matches",
        f"/api/rooms/{rid}/matches/0",
        f"/api/rooms/{rid}/matches/1/deals/0",
        f"/api/rooms/{rid}/matches/x/deals/1",
    ):
        r = get(server, path)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", path
    assert get(server, f"/api/rooms/{'0' * 32}/matches").status_code == 404
    paths = get(server, "/openapi.json").json()["paths"]  # documented in the schema
    assert {
        "/api/rooms/{room_id}/matches",
        "/api/rooms/{room_id}/matches/{match_no}",
        "/api/rooms/{room_id}/matches/{match_no}/deals/{deal_no}",
        "/api/me/games",
        "/api/rooms/{room_id}/transfers",
        "/api/transfers/claim",
        "/api/rooms/{room_id}/seats/reclaim",
    } <= set(paths)
    matches = json.loads(answers[f"/api/rooms/{rid}/matches"])
    assert [m["match_no"] for m in matches] == [1, 2]
    first, second = matches
    assert first["status"] == "finished" and second["status"] == "playing"
    assert [d["deal_no"] for d in first["deals"]] == [1, 2]
    assert [d["deal_no"] for d in second["deals"]] == [1], "the deal in play is not listed"
    assert first["cumulative"] == [sum(d["totals"][s] for d in first["deals"]) for s in (0, 1)]
    best = min(first["cumulative"])
    assert first["winners"] == [s for s in (0, 1) if first["cumulative"][s] == best]
    assert second["winners"] == [] and second["cumulative"] == second["deals"][0]["totals"]
    assert [s["name"] for s in first["seats"]] == ["Ann", "Bo"]
    assert ann_view["cumulative"] == second["cumulative"]
    assert not cards_in(matches), "the match list names no card"

    for m, d in ((1, 1), (1, 2), (2, 1)):
        record = json.loads(answers[f"/api/rooms/{rid}/matches/{m}/deals/{d}?positions=true"])
        assert (record["match_no"], record["deal_no"]) == (m, d)
        listed = matches[m - 1]["deals"][d - 1]
        assert record["scores"] == listed["scores"] and record["totals"] == listed["totals"]
        check_record(record, packs[(m, d)])
    current = json.loads(answers[f"/api/rooms/{rid}/deals/1"])
    assert (
        current["seed"]
        == json.loads(answers[f"/api/rooms/{rid}/matches/2/deals/1?positions=true"])["seed"]
    )

    download = json.loads(answers[f"/api/rooms/{rid}/matches/2?download=true"])
    assert [r["deal_no"] for r in download["records"]] == [1]
    whole = json.loads(answers[f"/api/rooms/{rid}/matches/1"])
    assert [r["deal_no"] for r in whole["records"]] == [1, 2]
    for i, record in enumerate(whole["records"]):  # each replays with the command too
        path = tmp_path / f"deal{i}.json"
        path.write_text(json.dumps(record))
        done = krypkasino(database_url, "scenario", str(path))
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["scores"] == record["scores"]

    # Nothing of the deal in play: its seed in no answer, and cards only inside the
    # records of finished deals, each record holding its own deal's pack.
    for path, text in answers.items():
        assert in_play_seed not in text, path
        body = json.loads(text)
        records = (
            body.get("records", [body] if "moves" in body else []) if isinstance(body, dict) else []
        )
        outside = (
            {k: v for k, v in body.items() if k != "records"}
            if isinstance(body, dict) and "records" in body
            else (None if records else body)
        )
        assert not cards_in(outside), f"{path} names cards outside finished deals' records"
        for record in records:
            assert (record["match_no"], record["deal_no"]) != (2, 2)
            assert set(cards_in(record)) <= set(packs[(record["match_no"], record["deal_no"])])

    before = dict(answers)
    server.stop()
    server.start()
    answers.clear()
    read_all()
    assert answers == before, "the same history after a restart"
