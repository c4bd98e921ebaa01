"""The admin page in Chromium, under the server's own Content-Security-Policy (the game
pages' one, issue 34): sign in with
the token, see a player's room, close it, and the player's page says so; after a
restart, find a finished room by a player's name, in Swedish too.  And a purged
room: the player's page and a fresh link both say it was removed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot
from tests.browser.waits import WAIT_MS
from tests.server.harness import backdate, watch_until_finished

pytestmark = pytest.mark.browser

TOKEN = "browser-admin-token-0123456789"


@pytest.fixture
def ops_server(chromium: Path, tmp_path: Path) -> Iterator[Server]:
    srv = Server(
        tmp_path,
        env={
            "ADMIN_TOKEN_HASH": hashlib.sha256(TOKEN.encode()).hexdigest(),
            "RETENTION_DAYS": "1",
            "RETENTION_INTERVAL": "0.5",
        },
    )
    yield srv
    srv.stop()


@pytest.fixture
def page_on(browser: Any, ops_server: Server) -> Iterator[Callable[[], Any]]:
    """Pages of fresh contexts on ``ops_server``, each under the policy the server sends
    (the game's and the admin page's alike); the policy's complaints and uncaught
    errors are collected in ``page.errors``."""
    contexts: list[Any] = []

    def make() -> Any:
        ctx = browser.new_context(
            viewport=DESKTOP, base_url=ops_server.url, locale="en-GB", reduced_motion="reduce"
        )
        ctx.set_default_timeout(WAIT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on(
            "console",
            lambda msg: (
                page.errors.append(msg.text)
                if msg.type == "error" and "Content Security Policy" in msg.text
                else None
            ),
        )
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def test_the_admin_signs_in_sees_a_room_and_closes_it(
    page_on: Callable[[], Any], ops_server: Server
) -> None:
    player = page_on()
    create_room(player, "Ann", players=2, bots=1)
    me = Player(player)
    me.wait_view()
    assert me.view["status"] == "playing"
    room_id = player.url.rsplit("/", 1)[-1]

    admin = page_on()
    response = admin.goto("/admin")
    assert (
        response is not None
        and "frame-ancestors 'none'" in response.headers["content-security-policy"]
    )
    admin.fill("#token", "not-the-token")
    admin.click("#login button[type=submit]")
    error = admin.locator("[data-testid=admin-error]")
    error.wait_for()
    assert "not valid" in error.inner_text()
    admin.fill("#token", TOKEN)
    admin.click("#login button[type=submit]")
    row = admin.locator(f"tr[data-room='{room_id}']")
    row.wait_for()
    assert row.locator("[data-testid=room-status]").inner_text() == "playing"
    assert "Ann" in row.inner_text() and "(bot)" in row.inner_text()
    stats = admin.locator("[data-testid=admin-stats]").inner_text()
    assert "Connections" in stats and "Bots thinking" in stats

    row.locator("[data-testid=close-room]").click()
    admin.fill("[data-testid=close-reason]", "Server maintenance")
    admin.click("[data-testid=confirm-close]")
    admin.wait_for_function(
        "(id) => { const r = document.querySelector(`tr[data-room='${id}'] [data-testid=room-status]`);"
        " return r && r.textContent === 'closed'; }",
        arg=room_id,
    )

    notice = player.locator("[data-testid=room-closed]")
    notice.wait_for()
    assert "This room has been closed" in notice.inner_text()
    assert "Server maintenance" in notice.inner_text()
    assert me.view["status"] == "finished" and me.view["legal"] == []
    assert not player.locator(".hand li.legal").count()
    assert admin.locator("#login").is_hidden(), "signed in, the token form is gone"
    summary = player.locator("[data-testid=deal-summary]")
    if summary.count():
        assert not summary.locator("[data-testid=rematch]").count(), "a closed room has no rematch"
    # Signed in survives a reload (this tab only), and signing out forgets the token.
    admin.reload()
    admin.locator(f"tr[data-room='{room_id}']").wait_for()
    admin.click("#logout")
    admin.locator("#login").wait_for()
    assert admin.evaluate("() => sessionStorage.getItem('krypkasino.admin-token')") is None
    assert not player.errors and not admin.errors
    # The policy is in force: an inline script does not run, and says why.
    ran = admin.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__inline = 1'; document.head.append(s);"
        " return window.__inline === 1; }"
    )
    assert ran is False
    for _ in range(100):  # the console report reaches the test a moment later
        if any("Content Security Policy" in e for e in admin.errors):
            break
        admin.wait_for_timeout(100)
    assert any("Content Security Policy" in e for e in admin.errors), admin.errors


def _finished_room(server: Server, name: str = "Ann") -> dict[str, Any]:
    body = {
        "players": 2,
        "name": name,
        "bots": 1,
        "grace": 0,
        "bot_delay": 0,
        "rules": {"single_pack": True, "match_deals": 1},
    }
    room = fetch.post(server.url + "/api/rooms", json=body).json()
    watch_until_finished(server.url, room["room_id"])  # bots play only while watched
    return room


def _rows(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#rooms tr", "rows => rows.map(r => r.dataset.room)"))


def test_after_a_restart_a_finished_room_is_found_by_a_players_name(
    page_on: Callable[[], Any], ops_server: Server, tmp_path: Path, screenshots: Path
) -> None:
    """The list is the database's: a room finished before the server restarted (so in
    no process's memory) is found by a part of a player's name, and the page speaks
    the language chosen for the game."""
    done = _finished_room(ops_server, "Zelda Finn")
    waiting = fetch.post(ops_server.url + "/api/rooms", json={"players": 3, "name": "Wanda"})
    assert waiting.status_code == 201
    ops_server.stop()
    (tmp_path / "again").mkdir()
    env = {"ADMIN_TOKEN_HASH": hashlib.sha256(TOKEN.encode()).hexdigest()}
    again = Server(tmp_path / "again", env=env, database_url=ops_server.database_url)
    try:
        admin = page_on()
        admin.goto(again.url + "/admin")
        admin.locator("body[data-ready=true]").wait_for()
        admin.fill("#token", TOKEN)
        admin.click("#login button[type=submit]")
        admin.locator(f"tr[data-room='{done['room_id']}']").wait_for()
        assert admin.locator("#login").is_hidden() and admin.locator("#logout").is_visible()
        assert _rows(admin) == [waiting.json()["room_id"], done["room_id"]], "newest first"
        assert "1–2 of 2" in admin.locator("[data-testid=admin-range]").inner_text()
        shoot(admin, screenshots, "admin-desktop-signed-in")

        admin.fill("[data-testid=admin-search]", "zelda")
        admin.wait_for_function(
            "(id) => { const rows = [...document.querySelectorAll('#rooms tr')];"
            " return rows.length === 1 && rows[0].dataset.room === id; }",
            arg=done["room_id"],
        )
        row = admin.locator(f"tr[data-room='{done['room_id']}']")
        assert row.locator("[data-testid=room-status]").inner_text() == "finished"
        assert "Zelda Finn" in row.inner_text() and "(bot)" in row.inner_text()
        assert row.locator("[data-testid=room-memory]").inner_text() == "no"
        shoot(admin, screenshots, "admin-desktop-search")
        admin.fill("[data-testid=admin-search]", "nobody-is-called-this")
        admin.locator("[data-testid=admin-no-rooms]").wait_for()
        admin.fill("[data-testid=admin-search]", "ZELDA")
        row.wait_for()

        # Swedish, chosen here or in the game (one saved choice for both pages).
        admin.select_option("[data-testid=admin-lang]", "sv")
        admin.wait_for_function("() => document.documentElement.lang === 'sv'")
        assert admin.locator("#rooms-title").inner_text() == "Rum"
        assert row.locator("[data-testid=room-status]").inner_text() == "slutspelat"
        assert "Botar som tänker" in admin.locator("[data-testid=admin-stats]").inner_text()
        admin.set_viewport_size(PHONE)
        shoot(admin, screenshots, "admin-phone-sv")
        admin.reload()
        admin.locator(f"tr[data-room='{done['room_id']}']").wait_for()
        assert admin.locator("#logout").inner_text() == "Logga ut"
        admin.goto(again.url + "/")
        admin.wait_for_function("() => document.documentElement.lang === 'sv'")

        admin.goto(again.url + "/admin")
        admin.locator("#logout").click()
        admin.locator("#login").wait_for()
        assert admin.locator("#panel").is_hidden()
        assert admin.locator("#login button[type=submit]").inner_text() == "Logga in"
        assert not admin.errors
    finally:
        again.stop()


def test_a_purged_room_tells_its_watchers_and_later_visitors(
    page_on: Callable[[], Any], ops_server: Server
) -> None:
    room = _finished_room(ops_server)
    watcher = page_on()
    watcher.goto(f"/r/{room['room_id']}?watch=1")
    Player(watcher).wait_view()
    backdate(ops_server.database_url, room["room_id"], 3)  # the server's sweep takes it
    gone = watcher.locator("[data-testid=room-purged]")
    gone.wait_for(timeout=WAIT_MS)
    assert "Room removed" in gone.inner_text()

    visitor = page_on()
    visitor.goto(f"/r/{room['room_id']}")
    detail = visitor.locator("[data-testid=purged-detail]")
    detail.wait_for()
    assert "3 days after its last game" in detail.inner_text()
    assert not watcher.errors and not visitor.errors
