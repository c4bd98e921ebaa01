"""Who gets the client's "not found" page for an unknown path, and who the JSON 404."""

from __future__ import annotations

import pytest

from app.web.notfound import accepts_html, wants_page

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"


@pytest.mark.parametrize(
    "accept", [BROWSER, "text/html", "TEXT/HTML; charset=utf-8", "text/html;q=0.5"]
)
def test_a_browser_navigating_accepts_html(accept: str) -> None:
    assert accepts_html(accept)


@pytest.mark.parametrize("accept", ["", "*/*", "application/json", "text/html;q=0", "text/plain"])
def test_programs_do_not_accept_html(accept: str) -> None:
    assert not accepts_html(accept)


@pytest.mark.parametrize("path", ["/some/unknown/page", "/r", "/lobby", "/r/abc/nothing"])
def test_a_browser_gets_the_page_for_an_unknown_path(path: str) -> None:
    assert wants_page("GET", path, BROWSER)
    assert wants_page("HEAD", path, BROWSER)


@pytest.mark.parametrize(
    "path", ["/api/nothing", "/api", "/static/nothing.js", "/ws/nothing", "/ws", "/metrics/x"]
)
def test_api_static_and_socket_paths_stay_json(path: str) -> None:
    assert not wants_page("GET", path, BROWSER)


def test_only_get_and_head_get_the_page() -> None:
    assert not wants_page("POST", "/some/unknown/page", BROWSER)
    assert not wants_page("GET", "/some/unknown/page", "application/json")
