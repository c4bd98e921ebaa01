"""No clock on a deal a player has not seen, and a card that waits for the server
(issue 33), in Chromium at phone and desktop sizes.

Between deals the end-of-deal summary itself counts down to the next deal and says
who has pressed Continue; when the next deal starts it closes by itself on every
screen (one opened again by hand too), the new deal's first clock is whole, and the
last deal's scores stay one click away.  A player who comes back to a deal they
never saw is told what the clock played for them.  A card clicked while the server
is unreachable is shown as waiting until it is played, then the mark goes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests import fetch
from tests.browser.ahead import Ahead, near_the_end, pages_near_the_end
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import Player, play_together
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.test_social import api_room, seat_page
from tests.browser.waits import WAIT_MS
from tests.server.proxy import TcpProxy

pytestmark = pytest.mark.browser

PAUSE = 15
"""Seconds between deals: room for the steps the test takes while the room waits."""
CLOCK = 60
"""Seconds of the turn clock: it never runs out while the test looks at deal 2."""

VIEW = "() => window.__krypkasino.store.get().view"
NEW_DEAL_SHOWN = """() => {
  const v = window.__krypkasino.store.get().view;
  return v && v.deal_no === 2 && !document.querySelector('[data-testid=deal-summary]');
}"""


def test_the_summary_counts_down_and_closes_itself_when_the_next_deal_starts(
    new_page: Any, server: Server, screenshots: Any
) -> None:
    room = api_room(
        server,
        turn_clock=CLOCK,
        deal_pause=PAUSE,
        rules={"single_pack": True, "match_deals": 2},
    )
    rid = room["room_id"]
    bo_seat = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Bo"}).json()
    # Their turns until the last few go over sockets (tests/browser/ahead.py); then
    # the pages take their seats and see the deal end.
    ann_page, bo_page = pages_near_the_end(
        new_page, server, [(room, "Ann", DESKTOP), ({**bo_seat, "room_id": rid}, "Bo", PHONE)], 2
    )
    ann, bo = Player(ann_page), Player(bo_page)
    play_together([ann, bo], clock=True)

    # The summary itself counts down to the next deal, on both screens.
    between = ann.view["between"]
    assert between is not None and ann.view["clock"] is None
    for page in (ann_page, bo_page):
        shown = page.locator("[data-testid=deal-summary] [data-testid=summary-next-in]")
        # One read of both: the countdown may tick between two reads.
        data_left, text = shown.evaluate("(el) => [el.dataset.left, el.innerText]")
        left = int(data_left or "-1")
        assert 0 < left <= PAUSE, left
        assert re.fullmatch(rf"Next deal in {left} s", text), (left, text)
        ready = page.locator("[data-testid=ready-seat]").evaluate_all(
            "els => els.map(e => e.dataset.ready)"
        )
        assert ready == ["no", "no"], "nobody has pressed Continue yet"

    # Bo presses Continue, then opens the scores again from the side panel: the
    # countdown goes on there and both screens say Bo is ready.
    bo_page.click("[data-testid=close-summary]")
    bo_page.wait_for_selector("[data-testid=deal-summary]", state="detached")
    bo_page.wait_for_selector("[data-testid=between-deals]")
    bo_page.click("[data-testid=open-summary]")
    for page in (ann_page, bo_page):
        page.wait_for_selector(
            "[data-testid=deal-summary] [data-testid=ready-seat][data-seat='1'][data-ready=yes]"
        )
    assert (
        ann_page.locator("[data-testid=ready-seat][data-seat='0']").get_attribute("data-ready")
        == "no"
    )
    shoot(ann_page, screenshots, "desktop-deal-summary-countdown")
    shoot(bo_page, screenshots, "phone-deal-summary-countdown")
    problems = {"desktop": axe_problems(ann_page), "phone": axe_problems(bo_page)}
    assert not any(problems.values()), problems
    assert ann.view["deal_no"] == 1, "the room still waits for Ann (the steps took too long?)"

    # Ann never presses Continue: the pause runs out, deal 2 starts, and both summaries
    # (Ann's own, and the one Bo opened by hand) close by themselves.
    for page in (ann_page, bo_page):
        # polled ten times a second, not every frame: the wait is most of the pause
        page.wait_for_function(NEW_DEAL_SHOWN, timeout=(PAUSE + 15) * 1000, polling=100)
    view = ann.view
    clock = view["clock"]
    assert clock is not None and clock["seat"] == view["to_move"]
    assert clock["deadline"] >= between["deadline"] + CLOCK * 1000, (
        "the first clock of deal 2 is whole, counted from the deal (after the pause)"
    )
    assert not view["log"], "nothing was played in deal 2 yet"

    # The deal's scores stay one click away: Ann, whose summary closed by itself, is
    # told so beside her hand; Bo, who had closed hers, has the side panel's button.
    assert "Deal 1 is over" in ann_page.locator("[data-testid=deal-over-notice]").inner_text()
    assert bo_page.locator("[data-testid=deal-over-notice]").count() == 0
    shoot(ann_page, screenshots, "desktop-deal-over-notice")
    shoot(bo_page, screenshots, "phone-next-deal-started")
    for page, size, opener in (
        (ann_page, "desktop", "notice-open-summary"),
        (bo_page, "phone", "open-summary"),
    ):
        page.click(f"[data-testid={opener}]")
        page.wait_for_selector("[data-testid=deal-summary] [data-testid=breakdown]")
        assert page.locator("#summary-title").inner_text() == "Deal 1 is over"
        assert page.locator("[data-testid=summary-countdown]").count() == 0
        shoot(page, screenshots, f"{size}-last-deal-reopened")
        page.click("[data-testid=close-summary]")
        page.wait_for_selector("[data-testid=deal-summary]", state="detached")
        assert page.locator("[data-testid=deal-over-notice]").count() == 0
    assert ann.view["deal_no"] == 2 and ann.view["clock"] is not None
    for page in (ann_page, bo_page):
        assert not page.errors


def test_back_in_a_deal_never_seen_a_player_is_told_what_the_clock_played(
    new_page: Any, server: Server, screenshots: Any
) -> None:
    room = api_room(
        server,
        bots=1,
        bot_delay=0,
        turn_clock=4,  # deal 2 is played for Ann by this clock; in deal 1 it may race her
        deal_pause=600,
        rules={"single_pack": True, "match_deals": 2},
    )
    rid = room["room_id"]
    # Ann's turns until her last two cards go over a socket of her own (whole deals by
    # clicks: see tests/browser/ahead.py); then her page takes the seat.
    with Ahead(server, rid, [room["token"]]) as mine:
        mine.play_until(near_the_end(2))
        page = seat_page(new_page, room, "Ann", PHONE)
        rail = new_page()
        rail.goto(f"/r/{rid}?watch=1")  # someone watches: the room's timers run
        me = Player(page)
        me.wait_view()
    me.play_until_summary(clock=True)  # the clock may play some of deal 1 for her too
    # Ann presses Continue (deal 2 starts: nobody else is to wait for) and leaves.  Had
    # she left with the summary open, her first turn of deal 2 would wait for her page
    # to show it (issue 47), and a stand-in bot, not the clock, would play after the
    # grace period.
    page.click("[data-testid=close-summary]")
    page.wait_for_function("() => window.__krypkasino.store.get().view.deal_no === 2")
    page.context.close()
    rail.wait_for_function(
        "() => { const v = window.__krypkasino.store.get().view;"
        " return v && v.deal_no === 2 && v.log.some(m => m.by === 'clock' && m.seat === 0); }",
        timeout=WAIT_MS,
        polling=100,  # not every frame: the wait is the clock's 4 s at least
    )
    played = [m["card"] for m in rail.evaluate(VIEW)["log"] if m.get("by") == "clock"]

    back = seat_page(new_page, room, "Ann", PHONE)
    Player(back).wait_view()
    back.wait_for_selector("[data-testid=played-for]")
    told = back.locator("[data-testid=played-for]").inner_text()
    assert told.startswith("Deal 2 started while you were away. The clock played for you:"), told
    mine = back.evaluate(VIEW)["seats"][0]["played_for"]
    assert [m["card"] for m in mine if m["deal_no"] == 2][: len(played)] == played, mine
    assert all(m["by"] == "clock" for m in mine)
    assert back.locator("[data-testid=deal-summary]").count() == 0, "deal 2 is not hidden"
    assert "Deal 1 is over" in back.locator("[data-testid=deal-over-notice]").inner_text()
    shoot(back, screenshots, "phone-played-for-unseen-deal")
    assert not back.errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_card_clicked_while_the_server_is_unreachable_shows_as_waiting(
    browser: Any, server: Server, screenshots: Any, size: str
) -> None:
    proxy = TcpProxy("127.0.0.1", server.port).start()
    room = api_room(server, bots=1, bot_delay=0)
    ctx = browser.new_context(
        viewport=PHONE if size == "phone" else DESKTOP,
        base_url=f"http://127.0.0.1:{proxy.port}",
        locale="en-GB",
        reduced_motion="reduce",
    )
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/healthz")  # the origin's storage, without loading the lobby for it
        page.evaluate(
            "([id, s]) => localStorage.setItem('krypkasino.seat.' + id, JSON.stringify(s))",
            [rid := room["room_id"], {"token": room["token"], "seat": 0, "name": "Ann"}],
        )
        page.goto(f"/r/{rid}")
        me = Player(page)
        me.wait_view()
        assert me.wait_ready() == "turn"
        state = me.state()
        seq, view = state["seq"], state["view"]
        card = next(c for c in (m["card"] for m in view["legal"]) if len(me.options(view, c)) == 1)
        assert page.locator(".hand li.pending").count() == 0

        proxy.stop()  # the server is unreachable: the socket is reset, new ones refused
        page.wait_for_function("() => window.__krypkasino.store.get().conn !== 'live'")
        me.click_card(card)
        waiting = page.locator(f'.hand li.pending button[data-card="{card}"]')
        waiting.wait_for()
        assert page.locator(".hand li.pending").count() == 1
        assert page.locator("[data-testid=pending-card]").inner_text() == "Waiting…"
        assert "waiting to be sent" in waiting.locator(".sr-only").inner_text()
        notice = page.locator("[data-testid=pending-notice]").inner_text()
        name = waiting.locator(".sr-only").inner_text().split(",")[0]
        assert name in notice and "waiting for the connection" in notice, notice
        shoot(page, screenshots, f"{size}-pending-card")
        assert me.state()["pending"] and me.state()["seq"] == seq

        proxy.start()  # back: the page reconnects and sends the same play by itself
        page.wait_for_function(
            "(seq) => { const s = window.__krypkasino.store.get();"
            " return s.seq > seq && !s.pending; }",
            arg=seq,
            timeout=WAIT_MS,
        )
        page.wait_for_selector(".hand li.pending", state="detached")
        assert page.locator("[data-testid=pending-notice]").count() == 0
        mine = [m["card"] for m in me.view["log"] if m["seat"] == 0]
        assert mine == [card], "played once, by the page's own resend"
        assert not errors
    finally:
        ctx.close()
        proxy.stop()
