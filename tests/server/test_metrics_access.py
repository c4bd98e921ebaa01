"""/metrics behind a token, or on a listener of its own, in a real server process, and
refused on the main port unless the host opts in (METRICS_PUBLIC).

(The test servers opt in, tests/server/process.py, so that tests read their figures.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests import fetch

from .harness import ServerProcess, free_port


@pytest.fixture
def start(tmp_path: Path) -> Iterator:
    started: list[ServerProcess] = []

    def make(**env: str) -> ServerProcess:
        proc = ServerProcess(
            f"sqlite+aiosqlite:///{tmp_path}/db.sqlite", env=env, log_path=tmp_path / "server.log"
        )
        started.append(proc)
        return proc.start()

    yield make
    for proc in started:
        proc.stop()


def _is_metrics(r: httpx.Response) -> bool:
    return r.status_code == 200 and 'krypkasino_rooms{status="waiting"}' in r.text


def test_by_default_metrics_are_refused_on_the_main_port(start) -> None:
    server = start(METRICS_PUBLIC="false")
    r = fetch.get(server.url + "/metrics")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert "METRICS_PORT" in r.json()["message"] and "krypkasino_" not in r.text
    assert fetch.get(server.url + "/healthz").status_code == 200


def test_a_host_may_open_metrics_to_anyone(start) -> None:
    assert _is_metrics(fetch.get(start(METRICS_PUBLIC="true").url + "/metrics"))


def test_by_default_a_token_opens_metrics_on_the_main_port(start) -> None:
    server = start(METRICS_PUBLIC="false", METRICS_TOKEN="s3cret-token")
    assert fetch.get(server.url + "/metrics").status_code == 401
    assert _is_metrics(
        fetch.get(server.url + "/metrics", headers={"Authorization": "Bearer s3cret-token"})
    )


def test_metrics_token_wants_a_bearer_header(start) -> None:
    server = start(METRICS_TOKEN="s3cret-token")
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": "s3cret-token"},
        {"Authorization": "Basic s3cret-token"},
    ):
        r = fetch.get(server.url + "/metrics", headers=headers)
        assert r.status_code == 401, headers
        assert r.json()["code"] == "unauthorized" and r.headers["www-authenticate"].startswith(
            "Bearer"
        )
    assert _is_metrics(
        fetch.get(server.url + "/metrics", headers={"Authorization": "Bearer s3cret-token"})
    )
    # Nothing else wants the token.
    assert fetch.get(server.url + "/healthz").status_code == 200


def test_metrics_port_moves_metrics_to_their_own_listener(start) -> None:
    port = free_port()
    server = start(METRICS_PORT=str(port))
    metrics = f"http://127.0.0.1:{port}"
    assert _is_metrics(fetch.get(metrics + "/metrics"))
    r = fetch.get(server.url + "/metrics")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    # The metrics listener serves nothing else: not the game, not its API.
    for path in ("/", "/healthz", "/api/codes/ZZZZZZ", "/docs"):
        assert fetch.get(metrics + path).status_code == 404, path
    assert fetch.post(metrics + "/api/rooms", json={"players": 2, "name": "A"}).status_code == 404
    # ... while the main port serves everything but /metrics.
    assert fetch.get(server.url + "/healthz").status_code == 200


def test_metrics_port_and_token_together(start) -> None:
    port = free_port()
    start(METRICS_PORT=str(port), METRICS_TOKEN="t0k")
    metrics = f"http://127.0.0.1:{port}/metrics"
    assert fetch.get(metrics).status_code == 401
    assert _is_metrics(fetch.get(metrics, headers={"Authorization": "Bearer t0k"}))


def test_a_websocket_on_the_metrics_port_is_refused(start) -> None:
    import asyncio

    import websockets
    from websockets.exceptions import InvalidStatus

    from tests.conftest import run_async

    port = free_port()
    start(METRICS_PORT=str(port))

    async def attempt() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/rooms/x" + "0" * 31):
            await asyncio.sleep(0)

    with pytest.raises(InvalidStatus, match="403"):
        run_async(attempt())
