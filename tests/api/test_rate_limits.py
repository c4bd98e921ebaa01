"""app/api/limits.py: the rate-limit dependencies, in a small app of their own (the
real server's are in tests/server/test_http_limits.py)."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from app.api import errors, limits
from app.api.limits import CodeLookupLimit, JoinLimit, RoomCreateLimit
from app.config import Settings
from app.limits.http import HttpLimits
from app.metrics import Metrics
from tests.conftest import run_async


def limited_app(**settings: int) -> FastAPI:
    """The dependencies read the limiters and the metrics from the app's services
    (app/api/deps.py); this app has those parts of them only (the settings: for IPV6_PREFIX)."""
    app = FastAPI()
    config = Settings(**settings)
    app.state.services = SimpleNamespace(
        metrics=Metrics(), http_limits=HttpLimits.from_settings(config), settings=config
    )
    errors.install(app, lambda exc: False)
    limits.install(app)

    @app.post("/create")
    async def create(_: RoomCreateLimit) -> dict[str, bool]:
        return {"ok": True}

    @app.post("/join")
    async def join(_: JoinLimit) -> dict[str, bool]:
        return {"ok": True}

    @app.get("/lookup")
    async def lookup(_: CodeLookupLimit) -> dict[str, bool]:
        return {"ok": True}

    return app


def requests(app: FastAPI, address: str, calls: list[tuple[str, str]]) -> list[httpx.Response]:
    """``calls`` ((method, path) each) from ``address``, in order, through the app."""

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=(address, 1000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.request(method, path) for method, path in calls]

    return run_async(run())


def refused_count(app: FastAPI, kind: str) -> float:
    return (
        app.state.services.metrics.registry.get_sample_value(
            "krypkasino_rate_limited_total", {"kind": kind}
        )
        or 0.0
    )


def test_each_kind_allows_its_number_at_once_then_429_with_retry_after() -> None:
    app = limited_app(room_create_per_minute=3, join_per_minute=5, code_lookup_per_minute=2)
    for path, method, allowed, kind in (
        ("/create", "POST", 3, "room_create"),
        ("/join", "POST", 5, "join"),
        ("/lookup", "GET", 2, "code_lookup"),
    ):
        *answers, refused = requests(app, "203.0.113.1", [(method, path)] * (allowed + 1))
        assert [a.status_code for a in answers] == [200] * allowed, path
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert f"({allowed} a minute)" in refused.json()["message"]
        assert int(refused.headers["Retry-After"]) == round(60 / allowed)
        assert refused_count(app, kind) == 1


def test_addresses_are_counted_apart() -> None:
    app = limited_app(room_create_per_minute=1)
    first = requests(app, "203.0.113.1", [("POST", "/create")] * 2)
    second = requests(app, "203.0.113.2", [("POST", "/create")])
    assert [r.status_code for r in first + second] == [200, 429, 200]


def test_zero_is_off() -> None:
    app = limited_app(room_create_per_minute=0)
    answers = requests(app, "203.0.113.1", [("POST", "/create")] * 50)
    assert {r.status_code for r in answers} == {200}
    assert refused_count(app, "room_create") == 0


def test_the_limits_do_not_share_a_budget() -> None:
    app = limited_app(room_create_per_minute=1, code_lookup_per_minute=1)
    answers = requests(
        app, "203.0.113.1", [("POST", "/create"), ("POST", "/create"), ("GET", "/lookup")]
    )
    assert [r.status_code for r in answers] == [200, 429, 200]


def test_the_addresses_of_one_ipv6_network_share_a_budget() -> None:
    """Every address of a /64 is one client; the next /64 and IPv4 are others, and an
    IPv4-mapped IPv6 address is its IPv4 address (app/limits/clients.py)."""
    app = limited_app(room_create_per_minute=2)
    flood = [
        requests(app, f"2001:db8:0:7:{i:x}::{i:x}", [("POST", "/create")])[0] for i in range(1, 5)
    ]
    assert [r.status_code for r in flood] == [200, 200, 429, 429]
    assert requests(app, "2001:db8:0:8::1", [("POST", "/create")])[0].status_code == 200
    mapped = requests(app, "::ffff:203.0.113.9", [("POST", "/create")] * 2)
    plain = requests(app, "203.0.113.9", [("POST", "/create")])
    assert [r.status_code for r in mapped + plain] == [200, 200, 429]


def test_the_network_size_follows_ipv6_prefix() -> None:
    app = limited_app(room_create_per_minute=1, ipv6_prefix=128)
    answers = [requests(app, f"2001:db8:0:7::{i:x}", [("POST", "/create")])[0] for i in (1, 2)]
    assert [r.status_code for r in answers] == [200, 200]
