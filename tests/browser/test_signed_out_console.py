"""Signed-out pages ask who is signed in without a failed request (issue 47, finding 11).

Before, every page asked ``GET /api/me``, which answers 401 when nobody is signed in:
Chromium logs each such answer on the console as a failed resource ("Failed to load
resource: ... 401"), 48 of 52 console messages over fifty page loads.  The client now
asks ``GET /api/session`` (200 ``{"account": null}`` when signed out).  A person who is
not signed in opens a dozen pages, lobby to replay, and the console stays clean: no
error message and no request answered with 4xx/5xx."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import Server

pytestmark = pytest.mark.browser


def _watch(page: Any) -> tuple[list[str], list[str]]:
    """The page's console errors and its failed requests, as they happen."""
    console: list[str] = []
    failed: list[str] = []
    page.on("console", lambda m: m.type in ("error", "warning") and console.append(m.text))
    page.on(
        "response",
        lambda r: r.status >= 400 and failed.append(f"{r.status} {r.request.method} {r.url}"),
    )
    page.on("requestfailed", lambda r: failed.append(f"failed {r.method} {r.url}"))
    return console, failed


def test_signed_out_pages_log_no_failed_request(
    new_page: Callable[..., Any], server: Server
) -> None:
    room = fetch.post(
        f"{server.url}/api/rooms",
        json={"players": 2, "name": "Host", "bots": 1},
        timeout=10,
    )
    assert room.status_code == 201, room.text
    room_id = room.json()["room_id"]
    page = new_page(service_workers="allow")  # as a person's browser: the app's worker too
    console, failed = _watch(page)
    pages = [
        ("/", "main"),
        ("/rules", "main"),
        ("/tutorial", "main"),
        ("/leaderboard", "main"),
        ("/leaderboard?players=3", "main"),
        ("/daily", "main"),
        ("/continue", "main"),
        (f"/r/{room_id}?watch=1", "main"),
        (f"/r/{room_id}/history", "main"),
        ("/?lang=sv", "main"),
    ]
    for path, ready in pages:
        page.goto(path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
    assert not failed, failed
    assert not console, console
    assert not page.errors, page.errors
