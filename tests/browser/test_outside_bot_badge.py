"""An outside bot's seat has a badge of its own on the page (issue 51): a person makes a
room in Chromium, a bot account's program takes a seat with its token (over HTTP, as
any program would), and the waiting room, then the table, show "Bot account" on that
seat, told apart from the server's own bot (its "Bot" badge) and from the person's
seat (neither); a screen reader reads it within the seat's region.  The test waits on
the page's state, never on the clock."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.accounts.tokens import CSRF_COOKIE, CSRF_HEADER
from tests.browser.conftest import Server
from tests.browser.driver import create_room
from tests.browser.test_screen_reader import HEARD_JS
from tests.browser.waits import WAIT_MS
from tests.conftest import run_async
from tests.server.harness import Client

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def bot_server(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: the test signs up an account (the session server's sign-up
    limit is shared by every browser test)."""
    srv = Server(tmp_path_factory.mktemp("outside-bot-badge"), env={"REGISTER_PER_HOUR": "0"})
    yield srv
    srv.stop()


def bot_token(url: str) -> str:
    """A new bot account's ``bot:play`` token, made as its owner's browser would."""
    with httpx.Client(base_url=url, timeout=20) as owner:
        name = f"Robo_{secrets.token_hex(3)}"
        r = owner.post("/api/auth/register", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        csrf = {CSRF_HEADER: owner.cookies.get(CSRF_COOKIE) or ""}
        r = owner.post("/api/me/bot", headers=csrf)
        assert r.status_code == 200, r.text
        r = owner.post("/api/tokens", json={"name": "t", "scopes": ["bot:play"]}, headers=csrf)
        assert r.status_code == 201, r.text
        return str(r.json()["token"])


def test_an_outside_bots_seat_shows_its_own_badge(browser: Any, bot_server: Server) -> None:
    ctx = browser.new_context(base_url=bot_server.url, locale="en-GB", reduced_motion="reduce")
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(HEARD_JS)
        create_room(page, "Ann", players=3, bots=1, match_deals=1)
        expect(page.locator("[data-testid=waiting-room]")).to_be_visible()
        room_id = page.locator("[data-testid=invite-link]").input_value().rsplit("/", 1)[1]

        token = bot_token(bot_server.url)
        with httpx.Client(base_url=bot_server.url, timeout=20) as program:
            me = program.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
            r = program.post(
                f"/api/rooms/{room_id}/seats",
                json={"name": me["username"]},
                headers={"Authorization": f"Bearer {token}"},
            )
        assert r.status_code == 201, r.text
        seat = r.json()["seat"]
        assert seat == 1, "Ann in 0, the server's bot in the last seat"

        # every seat is taken: the table shows each seat's badges
        page.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'playing'")
        bot_box = page.locator(f"[data-testid=seat][data-seat='{seat}']")
        badge = bot_box.locator("[data-testid=outside-bot]")
        expect(badge).to_contain_text("Bot account")
        expect(badge).to_have_attribute("title", "A program plays this seat with a bot account.")
        expect(badge).to_be_visible()
        # read as ", Bot account" after the name within the seat's region: a badge of its
        # own, not the server's bots' "Bot"
        expect(badge.locator(".sr-only")).to_have_count(1)
        expect(bot_box.locator(".badge.bot")).to_have_count(0)
        builtin = page.locator("[data-testid=seat][data-seat='2']")
        expect(builtin.locator(".badge.bot")).to_have_count(1)
        expect(builtin.locator("[data-testid=outside-bot]")).to_have_count(0)
        mine = page.locator("[data-testid=seat][data-seat='0']")
        if mine.count():  # the own seat may be drawn as the hand, not a seat box
            expect(mine.locator("[data-testid=outside-bot]")).to_have_count(0)
        assert page.locator("[data-testid=outside-bot]").count() == 1

        # the program connects, then leaves: the announcements name it as a bot account
        said = f"{me['username']} (a bot account)"
        ws_url = bot_server.url.replace("http://", "ws://")
        bearer = {"Authorization": f"Bearer {token}"}

        async def visit() -> None:
            bot = await Client(ws_url, room_id, r.json()["token"], bearer).connect()
            try:
                await bot.wait_for(lambda m: m["type"] == "snapshot")
            finally:
                await bot.close()

        run_async(visit())
        waiting = "(t) => window.__heard.some((h) => h.live === 'polite' && h.text.includes(t))"
        page.wait_for_function(waiting, arg=f"{said} left the table")
        assert not errors, errors
    finally:
        ctx.close()
