"""Talking at the table, a fair clock and finding a game (issue 12), in Chromium.

Chat reaches the players and the spectators as text (never HTML), refuses a flood,
follows the host's spectator switch and each reader's mutes; reactions show over the
sender's seat; the next deal waits for Continue and its first clock starts only then;
a move the clock made is marked in the log and the last-move pill; the lobby lists
public rooms (a page at a time), "Play now" starts a game in one click, and the lobby
has no serious accessibility problem.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, press
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)>"


def api_room(server: Any, **body: Any) -> dict[str, Any]:
    r = fetch.post(
        f"{server.url}/api/rooms", json={"players": 2, "name": "Ann", **body}, timeout=10
    )
    assert r.status_code == 201, r.text
    return r.json()


def seat_page(
    new_page: Any, room: dict[str, Any], name: str, viewport: dict[str, int] | None = None
) -> Any:
    """A browser that holds a seat (its token saved as the client saves it) at the table.
    The token is saved from the server's /healthz (the same origin, no client code)
    rather than from a lobby loaded only for that: about 0.6 s of Chromium's CPU."""
    page = new_page(viewport)
    page.goto("/healthz")
    page.evaluate(
        "([id, s]) => localStorage.setItem('krypkasino.seat.' + id, JSON.stringify(s))",
        [room["room_id"], {"token": room["token"], "seat": room["seat"], "name": name}],
    )
    page.goto(f"/r/{room['room_id']}")
    return page


def chat_texts(page: Any) -> list[str]:
    return page.locator("[data-testid=chat-list] .chat-text").all_inner_texts()


def wait_line(page: Any, text: str) -> None:
    """Until the page's chat shows a line holding ``text``."""
    page.wait_for_function(
        "(t) => [...document.querySelectorAll("
        "'[data-testid=chat-list] .chat-text')].some(e => e.textContent"
        ".includes(t))",
        arg=text,
    )


FLOOD_JS = """async (most) => {
    const input = document.querySelector('#chat-input');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    const refused = () => document.querySelector('[data-testid=chat-error]') !== null;
    const shown = (text) => [...document.querySelectorAll('[data-testid=chat-list] .chat-text')]
        .some((e) => e.textContent === text);
    for (let i = 0; i < most; i++) {
        const line = `flood ${i}`;
        setValue.call(input, line);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await pause();
        input.form.requestSubmit();
        // The server's answer to this line: shown in the chat, or refused.
        const deadline = performance.now() + 10000;
        while (!refused() && !shown(line)) {
            if (performance.now() > deadline) return `no answer to line ${i}`;
            await pause();
        }
        if (refused()) return i + 1;
    }
    return most;
}"""
"""Says lines as fast as the server answers them (the chat form, submitted; each line
waits for the server to show it or refuse it) until the chat shows a refusal, at most
``most`` of them; returns how many it said.  It stops at the refusal because saying
another line clears it, as a person's next line would."""


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_chat_reaches_players_and_spectators_as_text(new_page, server, screenshots) -> None:
    room = api_room(server)
    rid = room["room_id"]
    bo_seat = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": XSS}).json()
    ann = seat_page(new_page, room, "Ann")
    bo = seat_page(new_page, {**bo_seat, "room_id": rid}, XSS)
    rail = new_page(PHONE)
    rail.goto(f"/r/{rid}?watch=1")
    dialogs: list[str] = []
    for p in (ann, bo, rail):
        p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        p.wait_for_selector("[data-testid=chat]")
    ann.wait_for_selector("[data-testid=watching-count]")
    assert ann.locator("[data-testid=watching-count]").inner_text() == "1 watching"

    say(ann, XSS)
    for p in (ann, bo, rail):
        wait_line(p, XSS)
        assert XSS in chat_texts(p)
        assert p.locator("[data-testid=chat-list] img").count() == 0, "text, never HTML"
    say(bo, "hello Ann")
    wait_line(ann, "hello Ann")
    names = ann.locator("[data-testid=chat-list] .chat-name").all_inner_texts()
    assert names == ["Ann", XSS], "a name holding HTML shows as its characters"
    assert ann.locator("img[src=x]").count() == 0 and not dialogs

    # A spectator speaks under the name they give.
    rail.fill("[data-testid=chat-name]", "Rail")
    say(rail, "go Bo!")
    wait_line(bo, "go Bo!")
    line = bo.locator("[data-testid=chat-line]", has_text="go Bo!")
    assert line.locator("[data-testid=chat-spectator]").inner_text().lower() == "spectator"
    # ... marked as one, and not under a seated player's name (issue 34).
    rail.fill("[data-testid=chat-name]", "ann")
    say(rail, "I am Ann")
    rail.wait_for_selector("[data-testid=chat-error]")
    refusal = rail.locator("[data-testid=chat-error]").inner_text()
    assert "kept for the bots or a player" in refusal, refusal
    shoot(rail, screenshots, "phone-chat-name-reserved")
    rail.fill("[data-testid=chat-name]", "Rail")

    # Reactions show over the sender's seat, for everyone.
    bo.locator("[data-testid=react]").first.click()
    ann.wait_for_selector("[data-testid=reaction][data-seat='1']")
    rail.wait_for_selector("[data-testid=reaction][data-seat='1']")

    # The host hides the spectators' chat from the players.
    ann.uncheck("[data-testid=rail-toggle]")
    bo.wait_for_selector("[data-testid=rail-hidden]")
    say(rail, "secret from the rail")
    wait_line(rail, "secret from")
    say(ann, "players only")
    wait_line(bo, "players only")
    assert "secret from the rail" not in chat_texts(bo)
    assert "secret from the rail" not in chat_texts(ann)

    # Bo mutes Ann for himself only.
    bo.locator("details.mutes summary").click()
    bo.check("[data-testid=mute][data-who='seat:0']")
    assert XSS not in chat_texts(bo) and "players only" not in chat_texts(bo)
    assert "players only" in chat_texts(rail)

    # A flood is refused with a message beside the chat.  Typed by script, not by
    # Playwright's keyboard: on a busy machine typing lines one key at a time takes
    # long enough for the budget (bursts of 5, then one line every 2 s) to refill.
    # The script stops at the refusal; a server that never refuses fails at 20 lines.
    said = ann.evaluate(FLOOD_JS, 20)
    assert isinstance(said, int) and said < 20, f"a flood of 20 lines: {said}"
    ann.wait_for_selector("[data-testid=chat-error]")
    assert "too fast" in ann.locator("[data-testid=chat-error]").inner_text()

    shoot(ann, screenshots, "desktop-chat")
    shoot(rail, screenshots, "phone-chat-spectator")
    problems = {n: axe_problems(p) for n, p in (("player", ann), ("spectator", rail))}
    assert not any(problems.values()), problems
    for p in (ann, bo, rail):
        assert not p.errors

    # The room's history shows its chat (as text).
    ann.goto(f"/r/{rid}/history")
    ann.wait_for_selector("[data-testid=history-chat]")
    lines = ann.locator("[data-testid=history-chat] .chat-text").all_inner_texts()
    assert lines[0] == XSS and "players only" in lines
    assert "secret from the rail" not in lines, "hidden from players until the match is over"
    assert ann.locator("img[src=x]").count() == 0 and not dialogs


def test_the_clock_waits_for_continue_and_its_moves_are_marked(new_page, server) -> None:
    room = api_room(
        server,
        bots=1,
        bot_delay=1.5,
        turn_clock=3,
        deal_pause=600,
        rules={"single_pack": True, "match_deals": 2},
    )
    page = seat_page(new_page, room, "Ann")
    me = Player(page)
    me.wait_view()
    # Ann lets her first turn's clock run out: the clock plays for her, marked for all.
    page.wait_for_selector("[data-testid=last-move] [data-testid=by-mark]", timeout=WAIT_MS)
    mark = page.locator("[data-testid=last-move] [data-testid=by-mark]").inner_text()
    assert mark == "played by the clock"
    assert page.locator("[data-testid=log] [data-testid=by-mark]").count() == 1
    page.wait_for_selector("[data-testid=played-for]")
    assert "the clock played for you" in page.locator("[data-testid=played-for]").inner_text()
    me.play_until_summary(clock=True)  # the 3 s clock may win some turns on a busy machine
    view = me.view
    assert view["deal_no"] == 1 and view["between"] is not None
    assert view["clock"] is None and view["to_move"] is None, "no clock while the summary is open"
    assert page.locator("[data-testid=deal-summary]").is_visible()
    # Longer than a turn clock: nothing is played for Ann while she reads the summary.
    page.wait_for_timeout(3500)
    assert me.view["deal_no"] == 1 and me.view["clock"] is None
    pressed = int(time.time() * 1000)
    page.click("[data-testid=close-summary]")  # Continue
    page.wait_for_function("() => window.__krypkasino.store.get().view.deal_no === 2")
    page.wait_for_function("() => window.__krypkasino.store.get().view.clock")
    clock = me.view["clock"]
    assert clock["seat"] == 0
    assert clock["deadline"] >= pressed + 3000 - 100, "the first clock starts after Continue"
    assert not page.errors


def test_lobby_lists_public_rooms_and_play_now_starts_a_game(new_page, server, screenshots) -> None:
    open_rooms = [
        api_room(server, players=3, name=f"Host {i}", public=True)["room_id"] for i in range(8)
    ]
    private = api_room(server, players=3, name="Hidden")["room_id"]
    live = api_room(server, players=2, name="Liv", bots=1, public=True, bot_delay=5)
    watcher = new_page()
    watcher.goto(f"/r/{live['room_id']}?watch=1")
    watcher.wait_for_selector("[data-testid=chat]")
    problems: dict[str, list[str]] = {}
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(viewport)
        page.goto("/")
        page.wait_for_selector(f"[data-testid=public-live] [data-room='{live['room_id']}']")
        page.wait_for_selector("[data-testid=public-open] [data-testid=public-room]")
        shown = page.locator("[data-testid=public-open] [data-testid=public-room]").evaluate_all(
            "els => els.map(e => e.dataset.room)"
        )
        assert shown == open_rooms[::-1][: len(shown)] and len(shown) < len(open_rooms)
        assert private not in shown
        press(page, "[data-testid=public-more-open]")
        page.wait_for_function(
            "(n) => document.querySelectorAll("
            "'[data-testid=public-open] [data-testid=public-room]').length > n",
            arg=len(shown),
        )
        item = page.locator(f"[data-testid=public-live] [data-room='{live['room_id']}']")
        item = item.inner_text()
        assert "Liv" in item and "Deal 1" in item and "1 watching" in item
        shoot(page, screenshots, f"{size}-lobby-public")
        problems[size] = axe_problems(page)
        page.emulate_media(color_scheme="dark")
        problems[f"{size} dark"] = axe_problems(page)
        assert not page.errors
    assert not any(problems.values()), problems

    # One click: a game against a bot, under the name typed before (or a default).
    page = new_page()
    page.goto("/")
    page.click("[data-testid=play-now]")
    page.wait_for_url("**/r/*")
    me = Player(page)
    view = me.wait_view()
    assert view["status"] == "playing" and view["players"] == 2
    assert [s["bot"] for s in view["seats"]] == [False, True]
    # And the create form fills free seats with bots unless told otherwise.
    lobby = new_page()
    lobby.goto("/")
    lobby.wait_for_selector("[data-testid=create-form]")
    assert lobby.locator("#create-bots").input_value() == "3"
    lobby.check("input[name=players][value='3']")
    assert lobby.locator("#create-bots").input_value() == "2"
    lobby.fill("#create-name", "Pub")
    lobby.check("[data-testid=create-public]")
    lobby.select_option("#create-bots", "0")
    lobby.click("[data-testid=create-room]")
    lobby.wait_for_selector("[data-testid=waiting-room]")
    rid = lobby.url.rsplit("/", 1)[1]
    listed = fetch.get(f"{server.url}/api/rooms/public", params={"limit": 50}).json()["rooms"]
    assert rid in [r["room_id"] for r in listed]


def test_a_time_bank_shows_each_players_time(new_page, server) -> None:
    room = api_room(server, bots=1, bot_delay=0, time_bank=300, time_increment=5)
    page = seat_page(new_page, room, "Ann", PHONE)
    me = Player(page)
    me.wait_view()
    page.wait_for_selector("[data-testid=bank][data-seat='0']")
    page.wait_for_selector("[data-testid=bank][data-seat='1']")
    me.wait_ready()
    mine = page.locator("[data-testid=bank][data-seat='0']").inner_text()
    assert re.fullmatch(r"Time bank:\s*[45]:\d\d", mine), mine
    me.play_turn()
    # Her bank paid for the turn and got the increment: it stands still, shown as such.
    page.wait_for_function("() => window.__krypkasino.store.get().view.banks[0] !== 300000")
    bank = me.view["banks"][0]
    assert 0 < bank <= 305000
    assert not page.errors
