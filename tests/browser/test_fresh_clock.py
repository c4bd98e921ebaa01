"""A fresh clock on a deal a player had not seen, and a summary whose countdown and
rematch answers stay in view (issue 47), in Chromium.

Four at a table (Ann on a phone, Bo at a desktop, two bots), a 20 s clock: Ann leaves
deal 1's summary open and her phone's screen goes off (the page is hidden) while the
pause runs out and deal 2 comes to her turn.  When her page wakes and first shows deal 2, her clock shows its whole 20
s.  The summary's countdown to the next deal is inside the window and on top at
360×740, 740×360 and 1366×768 wherever the dialog is scrolled (on a phone it opens
scrolled down to Continue), and a rematch offer's Accept and Decline are inside the
phone's window.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.browser.ahead import pages_near_the_end
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import Player, play_together
from tests.browser.test_looks import shoot
from tests.browser.test_social import api_room
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

CLOCK = 20
"""Seconds of the turn clock, as in the finding."""
PAUSE = 4
"""Seconds between deals: Ann's summary is left open past it."""
ASLEEP = 6
"""Seconds Ann's turn runs while her phone sleeps: a clock counted from before she saw
the deal would show at most CLOCK - ASLEEP."""
SIDEWAYS = {"width": 740, "height": 360}
LAPTOP = {"width": 1366, "height": 768}

IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          vw: window.innerWidth, vh: window.innerHeight, onTop: !!hit && el.contains(hit)};
}"""


HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
SHOW = """() => {
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def assert_in_view(page: Any, selector: str, what: str) -> None:
    """The element is whole inside the window and nothing lies over its middle."""
    box = page.evaluate(IN_VIEW, selector)
    assert box is not None, f"{what}: not on the page"
    inside = box["top"] >= 0 and box["left"] >= 0
    inside = inside and box["bottom"] <= box["vh"] and box["right"] <= box["vw"]
    assert inside and box["onTop"], f"{what} is not in view: {box}"


def my_clock_shown(page: Any) -> int:
    """The seconds the page's own clock shows, once it is this seat's turn."""
    page.wait_for_function(
        """() => { const v = window.__krypkasino.store.get().view;
                   return v && v.clock && v.clock.seat === v.you
                     && !document.querySelector('[data-testid=deal-summary]')
                     && document.querySelector('[data-testid=status] [data-testid=clock]'); }""",
        timeout=WAIT_MS,
    )
    text = page.locator("[data-testid=status] [data-testid=clock]").inner_text()
    return int("".join(ch for ch in text if ch.isdigit()))


def test_a_deal_first_seen_late_shows_the_whole_clock(
    new_page: Any, server: Server, screenshots: Any
) -> None:
    room = api_room(
        server,
        players=4,
        bots=2,
        bot_delay=0.2,
        turn_clock=CLOCK,
        deal_pause=PAUSE,
        rules={"match_deals": 2},
    )
    rid = room["room_id"]
    bo_seat = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Bo"}).json()
    # Their turns until the last few go over sockets (tests/browser/ahead.py); then
    # the pages take their seats and see the deal end.
    ann_page, bo_page = pages_near_the_end(
        new_page, server, [(room, "Ann", PHONE), ({**bo_seat, "room_id": rid}, "Bo", DESKTOP)], 2
    )
    ann, bo = Player(ann_page), Player(bo_page)
    play_together([ann, bo], clock=True)
    ann_seat = ann.view["you"]
    ann_page.wait_for_selector("[data-testid=deal-summary] [data-testid=summary-next-in]")
    bo_page.click("[data-testid=close-summary]")  # Bo goes on; Ann's summary stays open

    # Ann's phone sleeps: its screen goes off with the summary open, and the page is
    # hidden (headless Chromium never hides a page: the page is told so as a phone's
    # browser tells it, by its visibility state and a visibilitychange event).
    ann_page.evaluate(HIDE)
    try:
        # The pause runs out, deal 2 comes round to Ann, and her turn runs a while.
        while not bo_page.evaluate(
            "(s) => { const v = window.__krypkasino.store.get().view;"
            " return v.deal_no === 2 && v.to_move === s; }",
            ann_seat,
        ):
            if bo.ready() == "turn":
                bo.play_turn()
            else:
                bo_page.wait_for_timeout(50)
        turn_seen_at = bo_page.evaluate("() => Date.now()")
        bo_page.wait_for_function(  # polled ten times a second, not every frame
            f"() => Date.now() >= {turn_seen_at + ASLEEP * 1000}", polling=100
        )
        assert bo.view["to_move"] == ann_seat and bo.view["deal_no"] == 2
    finally:
        ann_page.evaluate(SHOW)

    # Ann's page wakes: the summary closes itself, and her clock is whole.
    shown = my_clock_shown(ann_page)
    assert shown >= CLOCK - 1, f"Ann first sees deal 2 with {shown} s of her {CLOCK} s clock"
    view = ann.view
    left = view["clock"]["deadline"] - ann_page.evaluate("() => Date.now()")
    assert left >= (CLOCK - 2) * 1000, f"the server gives her {left} ms"
    assert not view["log"] or all(m["seat"] != ann_seat for m in view["log"])
    shoot(ann_page, screenshots, "phone-fresh-clock-after-sleep")
    for page in (ann_page, bo_page):
        assert not page.errors


@pytest.mark.parametrize("size", [PHONE, SIDEWAYS, LAPTOP], ids=["phone", "sideways", "laptop"])
def test_the_summary_countdown_stays_in_view(
    new_page: Any, server: Server, screenshots: Any, size: dict[str, int]
) -> None:
    room = api_room(
        server,
        players=4,
        bots=3,
        bot_delay=0,
        turn_clock=60,
        deal_pause=600,
        rules={"match_deals": 2},
    )
    # Ann's turns until her last card go over a socket of her own; this size's page
    # takes her seat for the last one, plays it, and sees the deal end.
    (page,) = pages_near_the_end(new_page, server, [(room, "Ann", size)], 1)
    ann = Player(page)
    ann.play_until_summary(clock=True)
    page.wait_for_selector("[data-testid=deal-summary] [data-testid=summary-next-in]")
    name = f"{size['width']}x{size['height']}"
    scrolls = page.evaluate(
        "() => { const d = document.querySelector('[data-testid=deal-summary]');"
        " return d.scrollHeight - d.clientHeight; }"
    )
    # as it opened (a phone's scrolled down to Continue), then at the top and the bottom
    for where in ("opened", "top", "middle", "bottom"):
        if where != "opened":
            page.evaluate(
                "([w, s]) => { document.querySelector('[data-testid=deal-summary]').scrollTop ="
                " w === 'top' ? 0 : w === 'middle' ? s / 2 : s; }",
                [where, scrolls],
            )
        assert_in_view(page, "[data-testid=summary-next-in]", f"the countdown ({name}, {where})")
        assert_in_view(page, "[data-testid=close-summary]", f"Continue ({name}, {where})")
        if where == "opened":
            shoot(page, screenshots, f"summary-countdown-{name}")
    assert not page.errors


def test_the_rematch_answers_are_in_view_on_a_phone(
    new_page: Any, server: Server, screenshots: Any
) -> None:
    room = api_room(server, players=4, bots=2, bot_delay=0, rules={"match_deals": 1})
    rid = room["room_id"]
    bo_seat = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Bo"}).json()
    # Their turns until the last few go over sockets (tests/browser/ahead.py); then
    # the pages take their seats and see the deal end.
    ann_page, bo_page = pages_near_the_end(
        new_page, server, [(room, "Ann", DESKTOP), ({**bo_seat, "room_id": rid}, "Bo", PHONE)], 2
    )
    ann, bo = Player(ann_page), Player(bo_page)
    play_together([ann, bo])
    bo_page.wait_for_selector("[data-testid=deal-summary] [data-testid=rematch]")
    ann_page.click("[data-testid=deal-summary] [data-testid=rematch]")
    bo_page.wait_for_selector("[data-testid=deal-summary] [data-testid=rematch-accept]")
    assert_in_view(bo_page, "[data-testid=rematch-accept]", "Accept")
    assert_in_view(bo_page, "[data-testid=rematch-decline]", "Decline")
    assert_in_view(bo_page, "[data-testid=rematch-countdown]", "the offer's countdown")
    shoot(bo_page, screenshots, "phone-rematch-offer-in-view")
    bo_page.click("[data-testid=rematch-accept]")
    bo_page.wait_for_selector("[data-testid=match-begins]")
    for page in (ann_page, bo_page):
        assert not page.errors
