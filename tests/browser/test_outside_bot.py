"""Bring your own bot (issue 51), the way the README tells it: a person makes a room in
Chromium, the example random bot of clients/python is started as a real process with
the room's code as the page shows it, takes the free seat, and the person plays the
whole one-deal match by clicking legal cards until the page shows who won.  The bot's
process must exit 0 with its JSON summary, having seen no error, and the finished
room's stored record (over HTTP) must hold its plays, none of them made for it by the
server.  The test waits on events (the page's state, the process's exit), never on
the clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests import fetch
from tests.browser.conftest import Server
from tests.browser.driver import Player, create_room
from tests.clients.outside import BotProcess, seat_plays
from tests.conftest import run_async

pytestmark = pytest.mark.browser

BOT = "Randy"


def _start_bot(server: Server, code: str, folder: Path) -> BotProcess:
    """The README's command, on the repository's client source (as PYTHONPATH)."""
    return BotProcess("random_bot.py", server.url, code, folder, "--name", BOT)


def test_a_person_in_the_browser_plays_a_whole_match_against_the_example_bot(
    new_page: Any, server: Server, tmp_path: Path
) -> None:
    page = new_page()
    create_room(page, "Ann", players=2, bots=0, rules=("single_pack",), match_deals=1)
    expect(page.locator("[data-testid=waiting-room]")).to_be_visible()
    code = page.locator("[data-testid=room-code]").inner_text()
    room_id = page.locator("[data-testid=invite-link]").input_value().rsplit("/", 1)[1]
    me = Player(page)

    bot = _start_bot(server, code, tmp_path)
    try:
        # The bot's seat shows on the table under its name, as a player's seat (no
        # "bot" badge: the server's own bots have that), and the deal begins.
        seat_box = page.locator("[data-testid=seat][data-seat='1']")
        expect(seat_box.locator(".seat-name")).to_have_text(BOT)
        expect(seat_box.locator(".badge.bot")).to_have_count(0)
        page.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'playing'")
        assert me.view["seats"][1]["name"] == BOT and me.view["you"] == 0

        plays = me.play_until_summary()
        page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")
        expect(page.locator("[data-testid=winners]")).to_be_visible()
        view = me.view
        summary: dict[str, Any] = run_async(bot.finished())
    finally:
        bot.stop()

    assert summary["errors"] == [], summary["errors"]
    assert (summary["room_id"], summary["seat"], summary["status"]) == (room_id, 1, "finished")
    assert summary["cumulative"] == view["cumulative"] and summary["winners"] == view["winners"]
    assert summary["fallbacks"] == 0
    winners = page.locator("[data-testid=winners]").inner_text()
    for seat in view["winners"]:
        assert (BOT in winners) if seat == 1 else ("you" in winners.lower())

    # The stored record: the room is finished, and the bot's seat made every one of its
    # plays itself (the record's moves say "by" when the server's clock or stand-in
    # played for a seat), as many as the bot says were acknowledged.
    room = fetch.get(f"{server.url}/api/rooms/{room_id}", timeout=10).json()
    assert room["status"] == "finished"
    recorded = seat_plays(server.url, room_id, 1, 1)
    assert all("by" not in p for p in recorded), [p for p in recorded if "by" in p]
    assert summary["plays"] == len(recorded) == plays == 24, "a single pack for two: 24 each"
    assert not page.errors


def test_the_example_bot_started_on_a_full_room_says_why_and_changes_nothing(
    new_page: Any, server: Server, tmp_path: Path
) -> None:
    """A room whose seats are all taken (the person's and the server's bot): the
    example exits 1 with the server's reason on stderr, prints no summary, and the
    page's seats are as they were."""
    page = new_page()
    create_room(page, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=1)
    me = Player(page)
    view = me.wait_view()
    before, code = view["seats"], view["code"]

    bot = _start_bot(server, code, tmp_path)
    try:
        exit_code = bot.proc.wait(60)
    finally:
        bot.stop()
    assert exit_code == 1, bot.log()
    assert "409 room_full: every seat is taken" in bot.log(), bot.log()
    assert bot.out.read_text() == ""
    assert [s["name"] for s in me.view["seats"]] == [s["name"] for s in before]
    expect(page.locator("[data-testid=seat]").filter(has_text=BOT)).to_have_count(0)
    assert not page.errors
