"""An unknown path as a real server answers it: a browser gets the client's page with
status 404 (the client shows its "not found" screen), a program the JSON 404."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import fetch

from .harness import ServerProcess

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("notfound")
    proc = ServerProcess(f"sqlite+aiosqlite:///{tmp}/db.sqlite", log_path=tmp / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_browser_gets_the_client_page_with_404(server: ServerProcess) -> None:
    r = fetch.get(server.url + "/some/unknown/page", headers={"Accept": BROWSER})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert 'name="krypkasino-version"' in r.text and "/js/main.js" in r.text
    assert "content-security-policy" in r.headers
    assert r.headers["cache-control"] == "no-cache"


def test_a_program_gets_json(server: ServerProcess) -> None:
    for accept in ("*/*", "application/json"):
        r = fetch.get(server.url + "/some/unknown/page", headers={"Accept": accept})
        assert r.status_code == 404
        assert r.json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/nothing/here", "/static/nothing.js"])
def test_api_and_static_paths_stay_json_for_a_browser(server: ServerProcess, path: str) -> None:
    r = fetch.get(server.url + path, headers={"Accept": BROWSER})
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


def test_a_missing_room_through_the_api_stays_json(server: ServerProcess) -> None:
    r = fetch.get(
        server.url + "/api/rooms/0123456789abcdef0123456789abcdef", headers={"Accept": BROWSER}
    )
    assert r.status_code == 404 and r.json()["code"] == "not_found"
