"""The bot ladder through a real server on SQLite and PostgreSQL: ``krypkasino ladder
run --packs 3`` plays packs into the server's database, the server publishes them,
and the standings are recomputed here, independently, from the published results;
a published deal replays on the engine from its seed and moves to its published
scores.  A pack stored but not finished is served nowhere."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from typing import Any

from app.bots.duplicate import side_totals
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from tests import fetch

from .harness import ServerProcess, krypkasino, sql

T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706}
"""The 0.975 quantile of Student's t, df 1 to 5 (from a statistics table; the server's
table has three decimals, hence the comparison to 1e-4 relative)."""
UNFINISHED_SEED = "ff" * 16


def get(server: ServerProcess, path: str) -> Any:
    answer = fetch.get(server.url + path, timeout=30)
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()


def recompute(packs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The standings from the published results, written apart from app/ladder."""
    per_pack: dict[str, list[tuple[float, float, int]]] = defaultdict(list)
    for pack in packs:
        deal_scores: dict[int, list[int]] = defaultdict(list)
        for r in pack["results"]:
            deal_scores[r["deal"]].append(r["score"])
        mine: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for r in pack["results"]:
            table = sum(deal_scores[r["deal"]]) / len(deal_scores[r["deal"]])
            mine[r["entrant"]].append((r["score"], r["score"] - table))
        for entrant, rows in mine.items():
            n = len(rows)
            per_pack[entrant].append((sum(s for s, _ in rows) / n, sum(d for _, d in rows) / n, n))
    out = {}
    for entrant, rows in per_pack.items():
        rel = [r for _, r, _ in rows]
        k = len(rel)
        centre = sum(rel) / k
        half = None
        if k >= 2:
            sd = math.sqrt(sum((x - centre) ** 2 for x in rel) / (k - 1))
            half = T975[k - 1] * sd / math.sqrt(k)
        out[entrant] = {
            "packs": k,
            "deals": sum(n for _, _, n in rows),
            "mean": sum(m for m, _, _ in rows) / k,
            "relative_mean": centre,
            "low": None if half is None else centre - half,
            "high": None if half is None else centre + half,
        }
    return out


def replay_deal(pack: dict[str, Any], record: dict[str, Any]) -> list[int]:
    """Deal ``record["deal"]`` of ``pack`` dealt from the pack's seed and played."""
    rules = RuleSet.from_dict(pack["rules"])
    deal = Deal.from_pack(rules, pack["players"], 0, shuffled_pack(pack["seed"], rules.copies))
    assert [list(h) for h in deal.opening.hands] == record["hands"]
    assert list(deal.opening.stock) == record["stock"]
    for move in record["moves"]:
        deal.apply(move["card"], move["take"])
    assert deal.is_over
    return side_totals(rules, deal.totals())


def test_the_ladder_publishes_what_recomputes_to_its_standings(server: ServerProcess) -> None:
    empty = get(server, "/api/ladder")
    assert empty["packs"] == 0 and empty["standings"] == [] and empty["players"] == 2
    done = krypkasino(
        server.database_url, "ladder", "run", "--packs", "3", "--worlds", "8", timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("stored") == 4, done.stdout
    # a pack made and not finished (its player stopped mid-way): served nowhere
    sql(
        server.database_url,
        "INSERT INTO ladder_packs (seed, players, rules, entrants, seatings, made_ms, owner,"
        " lease_until) VALUES (:seed, 2, :rules, :entrants, '[]', 1, 'x', :until)",
        seed=UNFINISHED_SEED,
        rules='{"partnership": false}',
        entrants='[{"entrant": "random", "kind": "level"}, {"entrant": "greedy", "kind": "level"}]',
        until=2**50,
    )
    (unfinished,) = sql(
        server.database_url, "SELECT id FROM ladder_packs WHERE seed = :s", s=UNFINISHED_SEED
    )
    ladder = get(server, "/api/ladder")
    assert ladder["packs"] == 3 and ladder["updated_ms"] is not None
    assert ladder["rules"] == RuleSet().to_dict()
    packs = []
    after = 0
    while True:  # pages of two
        page = get(server, f"/api/ladder/packs?after={after}&limit=2")
        packs += page["packs"]
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert len(packs) == 3 and unfinished[0] not in [p["id"] for p in packs]
    assert UNFINISHED_SEED not in str(packs)
    assert fetch.get(f"{server.url}/api/ladder/packs/{unfinished[0]}").status_code == 404
    # every entrant of three plays two packs of the three (tables of two)
    expected = recompute(packs)
    assert set(expected) == {"random", "greedy", "strong"}
    assert [s["entrant"] for s in ladder["standings"]] == sorted(
        expected, key=lambda e: (round(expected[e]["relative_mean"], 4), e)
    )
    for s in ladder["standings"]:
        mine = expected[s["entrant"]]
        assert s["kind"] == "level"
        assert (s["packs"], s["deals"]) == (mine["packs"], mine["deals"]) == (2, 4)
        for key in ("mean", "relative_mean", "low", "high"):
            assert math.isclose(s[key], mine[key], rel_tol=1e-4, abs_tol=1e-3), (s, mine)
    # the ratings: each pair of the three levels met at one table of two, so the least
    # squares' closed form gives each level's value as 2/3 of the sum of its relative
    # means in its packs (anchors: no interval)
    summed: dict[str, float] = defaultdict(float)
    for p in packs:
        deal_scores: dict[int, list[int]] = defaultdict(list)
        for r in p["results"]:
            deal_scores[r["deal"]].append(r["score"])
        mine_rel: dict[str, list[float]] = defaultdict(list)
        for r in p["results"]:
            table = sum(deal_scores[r["deal"]]) / len(deal_scores[r["deal"]])
            mine_rel[r["entrant"]].append(r["score"] - table)
        for entrant, rows in mine_rel.items():
            summed[entrant] += sum(rows) / len(rows)
    for s in ladder["standings"]:
        assert math.isclose(s["rating"], 2 / 3 * summed[s["entrant"]], abs_tol=1e-3), s
        assert s["rating_low"] is None and s["rating_high"] is None
    # the relative means of the table's entrants on the same deals sum to nothing
    assert math.isclose(
        sum(s["relative_mean"] * s["deals"] for s in ladder["standings"]), 0, abs_tol=0.01
    )
    # one published deal replays from its seed and moves to its published scores
    pack = get(server, f"/api/ladder/packs/{packs[1]['id']}")
    assert {k: pack[k] for k in packs[1]} == packs[1]
    assert len(pack["deals"]) == 2
    for record in pack["deals"]:
        totals = replay_deal(pack, record)
        assert totals == record["totals"] == [s["total"] for s in record["scores"]]
        published = {
            (r["seat"], r["entrant"]): r["score"]
            for r in pack["results"]
            if r["deal"] == record["deal"]
        }
        assert published == {(seat, e): totals[seat] for seat, e in enumerate(record["seats"])}
        assert record["seats"] == pack["seatings"][record["deal"]]
    assert statistics.fmean(len(p["results"]) for p in packs) == 4


BAD = [
    "/api/ladder/packs?after=-1",
    "/api/ladder/packs?after=abc",
    "/api/ladder/packs?after=1e400",
    "/api/ladder/packs?after=99999999999999999999999999",
    "/api/ladder/packs?limit=0",
    "/api/ladder/packs?limit=-5",
    "/api/ladder/packs?limit=101",
    "/api/ladder/packs?limit=1000000000000",
    "/api/ladder/packs?limit=ten",
    "/api/ladder/packs/0",
    "/api/ladder/packs/-1",
    "/api/ladder/packs/abc",
    "/api/ladder/packs/1.5",
    "/api/ladder/packs/999999999999999999999999999999",
    "/api/ladder/packs/123456",
]


def test_bad_ladder_queries_are_refused_with_a_code(server: ServerProcess) -> None:
    for path in BAD:
        answer = fetch.get(server.url + path, timeout=10)
        assert 400 <= answer.status_code < 500, (path, answer.status_code, answer.text)
        body = answer.json()
        assert set(body) >= {"code", "message"} and body["code"] in ("bad_request", "not_found")
        assert body["message"], path
    assert fetch.get(server.url + "/api/ladder/packs/123456").json()["code"] == "not_found"
    assert get(server, "/api/ladder/packs") == {"packs": [], "next_after": None}


def test_the_standings_page_is_served(server: ServerProcess) -> None:
    page = fetch.get(server.url + "/ladder", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    schema = get(server, "/openapi.json")
    listed = schema["paths"]["/api/ladder"]["get"]["responses"]["200"]["content"]
    assert listed["application/json"]["schema"] == {"$ref": "#/components/schemas/Standings"}
    standing = schema["components"]["schemas"]["Standing"]["properties"]
    assert set(standing) == {
        "entrant",
        "kind",
        "packs",
        "deals",
        "mean",
        "relative_mean",
        "low",
        "high",
        "rating",
        "rating_low",
        "rating_high",
    }
