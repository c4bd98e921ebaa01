"""GET /api/rules (its facts beside the options), GET /api/rules/deal and GET
/api/tutorial: served as the engine computes them (app/engine/facts.py, tutorial.py).

In process: the rules router and the error handlers on an app of their own
(tests/api/test_rules.py checks the real server's catalogue).
"""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from app.api import errors, rules
from app.bots import LEVELS
from app.engine.facts import deal_facts, rules_catalogue
from app.engine.rules import RuleSet
from app.engine.tutorial import tutorial
from tests.conftest import run_async


class Client:
    """GET requests through the app in process (httpx's ASGI transport)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def get(self, path: str) -> httpx.Response:
        async def run() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                return await c.get(path)

        return run_async(run())


@pytest.fixture(scope="module")
def client() -> Client:
    app = FastAPI()
    errors.install(app, lambda _exc: False)  # no database here: nothing is an outage
    app.include_router(rules.router)
    return Client(app)


def test_the_catalogue_carries_the_bot_levels_the_variants_and_the_pictures(
    client: Client,
) -> None:
    r = client.get("/api/rules")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body["bot_levels"] == list(LEVELS) == ["random", "greedy", "strong"]
    assert body == {**rules_catalogue(), "bot_levels": list(LEVELS)}
    assert [v["section"] for v in body["variants"]] == [f"v{i}" for i in range(1, 11)]
    assert body["pictures"] == ["J", "Q", "K"]  # R2.4
    by_name = {o["name"]: o for o in body["options"]}
    assert by_name["four_card_deal"]["section"] == "v7"
    assert by_name["match_limit"]["section"] == "v8"
    assert by_name["picture_pairs"]["text"] == "rule_picture_pairs"


def test_the_standard_deal_for_every_player_count(client: Client) -> None:
    body = client.get("/api/rules/deal").json()
    assert body["rules"] == RuleSet().to_dict()
    deals = body["deals"]
    assert [d["players"] for d in deals] == [2, 3, 4, 5, 6]
    # R2.2: hand / table per player count
    assert [(d["hand"], d["table"]) for d in deals] == [(6, 4), (5, 5), (5, 4), (4, 4), (5, 2)]
    assert deals == [deal_facts(RuleSet(), n) for n in range(2, 7)]


def test_the_deal_of_a_variant_and_a_player_count(client: Client) -> None:
    body = client.get("/api/rules/deal?four_card_deal=true&players=3").json()
    assert body["rules"]["four_card_deal"] is True
    (deal,) = body["deals"]
    assert (deal["players"], deal["hand"], deal["table"]) == (3, 4, 4)  # V7
    assert deal["packets"] == [12] * 7 + [4]
    v7 = client.get("/api/rules/deal?four_card_deal=true").json()["deals"]
    assert [d["players"] for d in v7] == [2, 3, 4]
    v2 = client.get("/api/rules/deal?single_pack=1").json()["deals"]
    assert [(d["players"], d["cards"], d["hand"], d["stock"]) for d in v2] == [(2, 52, 4, 40)]


@pytest.mark.parametrize(
    ("query", "mentions"),
    [
        ("no_such_rule=true", "no_such_rule"),
        ("nordic=yes", "nordic"),
        ("match_deals=0", "match_deals"),
        ("four_card_deal=true&players=5", "four-card deal"),
        ("partnership=true&single_pack=true", "no number of players"),
        ("players=7", "players"),
    ],
)
def test_a_bad_rule_set_is_a_422_with_code_and_message(
    client: Client, query: str, mentions: str
) -> None:
    r = client.get(f"/api/rules/deal?{query}")
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "bad_request" and mentions in body["message"], body


def test_the_tutorial_is_the_engines(client: Client) -> None:
    r = client.get("/api/tutorial")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body == tutorial()
    assert set(body) == {"players", "dealer", "you", "rules", "steps", "frames"}
    frame = body["frames"][0]
    assert set(frame) == {"view", "move"}
    assert {"table", "hand", "hand_counts", "packets", "log", "scores", "legal"} <= set(
        frame["view"]
    )
    assert body["frames"][-1]["move"] is None and body["frames"][-1]["view"]["deal_over"]
