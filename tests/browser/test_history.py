"""Games that stay, in Chromium: the replay viewer, the room history, "My games", a
shared review in three browser contexts, and a seat moved to another device.

One room serves the whole module (the tests run in this order): Ann plays the first
deal of a two-deal match against a bot by clicks, and the second deal stays in play,
so reviews run beside a live table.  Every shown position of the replay is checked
against the engine's own replay of the deal's record.  Screenshots of the replay
viewer, the room history and "My games" at phone and desktop sizes go to
test-artifacts/screenshots/, and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from tests import fetch
from tests.browser.conftest import CSP_LISTENER, DESKTOP, PHONE, is_csp_report
from tests.browser.driver import Player, create_room
from tests.browser.qrdecode import decode
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

ORDER = [
    r + s
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for s in "SHDC"
]


class Pages:
    """Browser contexts of this module (separate storage: separate people)."""

    def __init__(self, browser: Any, server: Any) -> None:
        self.browser, self.server = browser, server
        self.contexts: list[Any] = []
        self.pages: list[Any] = []

    def new(self, viewport: dict[str, int] | None = None, name: str | None = None) -> Any:
        ctx = self.browser.new_context(
            viewport=viewport or DESKTOP,
            base_url=self.server.url,
            locale="en-GB",
            reduced_motion="reduce",
        )
        ctx.set_default_timeout(WAIT_MS)
        if name is not None:  # a returning visitor: the lobby remembered this name
            ctx.add_init_script(f"localStorage.setItem('krypkasino.name', {name!r});")
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.csp_reports = []
        page.on(
            "console", lambda msg: is_csp_report(msg.text) and page.csp_reports.append(msg.text)
        )
        page.add_init_script(CSP_LISTENER)
        self.contexts.append(ctx)
        self.pages.append(page)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture(scope="module")
def room(browser: Any, server: Any) -> Iterator[dict[str, Any]]:
    """Ann's page in a room whose first deal (of two) is over and second in play."""
    pages = Pages(browser, server)
    ann = pages.new(DESKTOP)
    create_room(ann, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=2)
    me = Player(ann)
    me.wait_view()
    me.play_until_summary(prefer_creep=True)
    ann.click("[data-testid=close-summary]")
    ann.wait_for_function("() => window.__krypkasino.store.get().view.deal_no === 2")
    room_id = me.view["room_id"]
    record = fetch.get(f"{server.url}/api/rooms/{room_id}/matches/1/deals/1", timeout=10).json()
    yield {"id": room_id, "ann": ann, "pages": pages, "record": record}
    reports = [r for page in pages.pages for r in page.csp_reports]
    errors = [e for page in pages.pages for e in page.errors]
    pages.close()
    assert not reports, f"Content-Security-Policy violations: {reports}"
    assert not errors, errors


def engine_positions(record: dict[str, Any]) -> list[Deal]:
    """The engine's deal after each number of the record's moves, replayed here."""
    rules = RuleSet.from_dict(record["rules"])
    out = []
    for k in range(len(record["moves"]) + 1):
        deal = Deal.from_position(
            rules,
            record["players"],
            record["dealer"],
            record["hands"],
            record["table"],
            record["stock"],
        )
        for m in record["moves"][:k]:
            deal.apply(m["card"], m["take"])
        out.append(deal)
    return out


def shown(page: Any, within: str = "") -> dict[str, Any]:
    """The position on screen: every hand, the table in order, the stock count, the step."""
    return page.evaluate(
        """(within) => {
        const root = document.querySelector(within + ' [data-testid=replay-board]');
        const hands = [...root.querySelectorAll('[data-testid=replay-hand]')]
            .map((li) => li.dataset.cards ? li.dataset.cards.split(' ') : []);
        const table = [...root.querySelectorAll('[data-testid=table] li[data-card]')].map((li) => li.dataset.card);
        const stock = Number(root.querySelector('[data-testid=stock] .big').textContent);
        const markers = [...root.querySelectorAll('[data-testid=replay-hand]')]
            .map((li) => li.dataset.markers ? li.dataset.markers.split(' ') : []);
        const move = document.querySelector(within + ' [data-testid=replay-move]');
        return {step: Number(root.dataset.step), hands, table, stock, markers,
                kind: move.dataset.kind, move: move.textContent,
                aside: root.querySelectorAll('.set-aside .mini').length,
                lastPacket: root.querySelectorAll('[data-testid=last-packet]').length};
    }""",
        within,
    )


def check_position(page: Any, deals: list[Deal], step: int, within: str = "") -> None:
    page.wait_for_selector(f"{within} [data-testid=replay-board][data-step='{step}']")
    got = shown(page, within)
    deal = deals[step]
    assert got["hands"] == [sorted(h, key=ORDER.index) for h in deal.hands], step
    assert got["table"] == deal.table, step
    assert got["stock"] == len(deal.stock), step
    assert got["markers"] == [list(m) for m in deal.sweep_markers], step
    assert got["aside"] == len(deal.set_aside_spades) + len(deal.set_aside_other), step
    assert got["lastPacket"] == int(deal.last_packet and not deal.is_over), step
    assert got["kind"] == (deal.results[-1].kind if deal.results else ""), step
    if deal.results and deal.results[-1].taken:  # what the move did, with the cards taken
        assert "takes" in got["move"] or "taking" in got["move"], got["move"]


def test_stepping_through_a_finished_deal_shows_the_engines_positions(room, screenshots) -> None:
    record = room["record"]
    deals = engine_positions(record)
    last = len(deals) - 1
    page = room["pages"].new(PHONE)
    page.goto(f"/r/{room['id']}/replay/1/1")
    check_position(page, deals, 0)
    shoot(page, screenshots, "phone-replay-light")
    problems = axe_problems(page)
    for step in range(1, last + 1):  # forward: the button, then the arrow key, in turn
        if step % 2:
            page.click("[data-testid=step-next]")
        else:
            page.keyboard.press("ArrowRight")
        check_position(page, deals, step)
    assert page.locator("[data-testid=replay-end]").is_visible(), "the award and summary"
    totals = page.locator("[data-testid=running-total]").all_text_contents()
    assert [int(x.replace("\u2212", "-")) for x in totals] == record["totals"]  # U+2212 minus
    page.locator("[data-testid=replay-end]").scroll_into_view_if_needed()
    shoot(page, screenshots, "phone-replay-end-light")
    for step in range(last - 1, last - 8, -1):  # and back
        if step % 2:
            page.click("[data-testid=step-prev]")
        else:
            page.keyboard.press("ArrowLeft")
        check_position(page, deals, step)
    page.keyboard.press("Home")
    check_position(page, deals, 0)
    page.keyboard.press("End")
    check_position(page, deals, last)
    page.locator("[data-testid=move-item][data-step='5']").click()
    check_position(page, deals, 5)
    assert page.url.endswith("?step=5"), "the position is in the shareable URL"
    page.locator("[data-testid=step-slider]").fill("12")
    check_position(page, deals, 12)
    page.reload()  # the URL of a position opens on that position
    check_position(page, deals, 12)

    desktop = room["pages"].new(DESKTOP)
    desktop.goto(f"/r/{room['id']}/replay/1/1?step=3")
    check_position(desktop, deals, 3)
    shoot(desktop, screenshots, "desktop-replay-light")
    problems += axe_problems(desktop)
    desktop.emulate_media(color_scheme="dark")
    shoot(desktop, screenshots, "desktop-replay-dark")
    problems += axe_problems(desktop)
    desktop.select_option(".lang-switch select", "sv")  # in every language
    desktop.wait_for_function("() => document.documentElement.lang === 'sv'")
    assert desktop.locator("[data-testid=step-count]").text_content() == f"Drag 3 av {last}"
    desktop.goto(f"/r/{room['id']}/replay/1/2")  # deal 2 is in play: nothing to show
    desktop.wait_for_selector("[data-testid=error]")
    assert not desktop.locator("[data-testid=replay-board]").count()
    assert not problems, problems


# What of a replay's position lies (even in part) outside the first screen.
REPLAY_UNSEEN_JS = """() => {
    const out = [];
    for (const sel of ['.step-controls', '[data-testid=replay-move]', '.replay-felt',
                       '[data-testid=replay-hand]', '[data-testid=table] li']) {
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5)
                out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`);
        }
    }
    if (window.scrollY !== 0) out.push(`the page scrolled by ${window.scrollY}`);
    if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
    return out;
}"""


@pytest.mark.parametrize("size", [(640, 360), (844, 390)])
def test_a_replay_held_sideways_shows_each_step_on_the_first_screen(
    room, screenshots, size
) -> None:
    """The step buttons and the move at the left, the table and every hand beside them:
    each step's whole position in sight without scrolling, as the engine replays it."""
    deals = engine_positions(room["record"])
    page = room["pages"].new({"width": size[0], "height": size[1]})
    page.goto(f"/r/{room['id']}/replay/1/1")
    for step in range(len(deals)):
        if step:
            page.keyboard.press("ArrowRight") if step % 2 else page.click("[data-testid=step-next]")
        check_position(page, deals, step)
        assert page.evaluate(REPLAY_UNSEEN_JS) == [], step
        if step == 9:
            shoot(page, screenshots, f"sideways-{size[0]}x{size[1]}-replay")
    controls = page.locator(".step-controls").bounding_box()
    felt = page.locator(".replay-felt").bounding_box()
    assert controls["x"] + controls["width"] <= felt["x"], "the buttons beside the table"


def test_the_room_history_lists_matches_deals_and_player_figures(room, server, screenshots) -> None:
    matches = fetch.get(f"{server.url}/api/rooms/{room['id']}/matches", timeout=10).json()
    (match,) = matches
    deal = match["deals"][0]
    page = room["pages"].new(PHONE)
    page.goto(f"/r/{room['id']}/history")
    page.wait_for_selector("[data-testid=figures]")
    for seat in (0, 1):
        row = page.locator(f"[data-testid=figure-row][data-seat='{seat}']")
        score = deal["scores"][seat]
        assert row.locator("[data-k=deals]").text_content() == "1"
        mean = str(deal["totals"][seat]).replace("-", "\u2212")  # a true minus sign
        assert row.locator("[data-k=mean]").text_content() == mean
        assert row.locator("[data-k=sweeps]").text_content() == str(
            score["sweeps"] + score["double_sweeps"]
        )
        assert row.locator("[data-k=conceded]").text_content() == str(
            score["sweeps_conceded"] + score["double_sweeps_conceded"]
        )
        assert row.locator("[data-k=won]").text_content() == "0", "the match is not over"
    links = page.locator("[data-testid=replay-link]")
    assert links.count() == 1 and links.get_attribute("href") == f"/r/{room['id']}/replay/1/1"
    download = page.locator("[data-testid=download-match]").get_attribute("href")
    body = fetch.get(server.url + download, timeout=10)
    assert "attachment" in body.headers["content-disposition"]
    assert [r["deal_no"] for r in body.json()["records"]] == [1]
    shoot(page, screenshots, "phone-history-light")
    problems = axe_problems(page)
    page.set_viewport_size(DESKTOP)
    shoot(page, screenshots, "desktop-history-light")
    problems += axe_problems(page)
    links.click()  # each deal links to its replay
    page.wait_for_selector("[data-testid=replay-board]")
    assert not problems, problems


def test_my_games_lists_the_match_after_a_reload_and_rejoins_in_one_click(
    room, screenshots
) -> None:
    ann = room["ann"]
    ann.goto("/")
    game = f"[data-testid=my-game][data-room='{room['id']}']"
    ann.wait_for_selector(game)
    ann.reload()
    ann.wait_for_selector(game)
    assert ann.locator(f"{game} [data-testid=game-match]").count() == 1
    assert (
        ann.locator(f"{game} [data-testid=game-replay]").get_attribute("href")
        == f"/r/{room['id']}/replay/1/1"
    )
    shoot(ann, screenshots, "desktop-mygames-light")
    problems = axe_problems(ann)
    ann.set_viewport_size(PHONE)
    ann.locator("[data-testid=my-games]").scroll_into_view_if_needed()
    shoot(ann, screenshots, "phone-mygames-light")
    problems += axe_problems(ann)
    ann.set_viewport_size(DESKTOP)
    elsewhere = room["pages"].new(DESKTOP)  # a browser that never sat here lists nothing
    elsewhere.goto("/")
    elsewhere.wait_for_selector("[data-testid=my-games] .hint")
    assert not elsewhere.locator("[data-testid=my-game]").count()
    ann.click(f"{game} [data-testid=rejoin]")
    ann.wait_for_url(f"**/r/{room['id']}")
    Player(ann).wait_view()
    ann.wait_for_function("() => window.__krypkasino.store.get().view.you === 0")
    assert not problems, problems


def _follow(pages: list[Any], step: int, deals: list[Deal]) -> None:
    for page in pages:
        page.wait_for_selector(f"[data-testid=review-pane][data-step='{step}']")
        check_position(page, deals, step, "[data-testid=review-pane]")


# Presses a key in the same task as the pane first says "you drive" (a mutation
# observer's callback runs before the page paints, and before any effect runs).
PRESS_WHEN_DRIVING = """(key) => {
    const pane = document.querySelector('[data-testid=review-pane]');
    const seen = new MutationObserver(() => {
        if (pane.dataset.driving !== 'yes') return;
        seen.disconnect();
        document.body.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
        window.__pressedWhenDriving = key;
    });
    seen.observe(pane, {attributes: true, attributeFilter: ['data-driving']});
}"""


def test_a_shared_review_follows_its_driver_across_three_contexts(room) -> None:
    deals = engine_positions(room["record"])
    ann = room["ann"]
    seq = ann.evaluate("() => window.__krypkasino.store.get().seq")
    cy = room["pages"].new(DESKTOP, name="Cy")
    dee = room["pages"].new(PHONE, name="Dee")
    for page in (cy, dee):
        page.goto(f"/r/{room['id']}?watch=1")
        Player(page).wait_view()
    ann.click("[data-testid=review-picker] summary")
    ann.click("[data-testid=start-review][data-match='1'][data-deal='1']")
    ann.wait_for_selector("[data-testid=review-pane][data-driving=yes]")
    for page in (cy, dee):
        page.click("[data-testid=join-review]")
    _follow([ann, cy, dee], 0, deals)
    for step in (1, 2, 3):
        ann.click("[data-testid=review-pane] [data-testid=step-next]")
        _follow([ann, cy, dee], step, deals)
    ann.keyboard.press("ArrowRight")
    _follow([cy, dee], 4, deals)
    assert cy.locator("[data-testid=review-pane] [data-testid=step-next]").is_disabled()

    dee.reload()  # lands back in the review, on the current position
    _follow([dee], 4, deals)
    assert dee.locator("[data-testid=review-person]").count() == 3

    person = ann.locator("[data-testid=review-person]", has_text="Cy")
    cy.evaluate(PRESS_WHEN_DRIVING, "End")  # a key pressed the moment control arrives...
    person.locator("[data-testid=hand-over]").click()
    cy.wait_for_selector("[data-testid=review-pane][data-driving=yes]")
    assert cy.evaluate("() => window.__pressedWhenDriving") == "End"
    _follow([ann, cy, dee], len(deals) - 1, deals)
    cy.click("[data-testid=review-pane] [data-testid=move-item][data-step='7']")
    _follow([ann, cy, dee], 7, deals)
    assert ann.evaluate("() => window.__krypkasino.store.get().seq") == seq, (
        "a review step is not a move"
    )

    ann.click("[data-testid=leave-review]")  # back to the live table, where play goes on
    ann.wait_for_selector("[data-testid=review-pane]", state="detached")
    ann.wait_for_selector("[data-testid=review-banner]")
    me = Player(ann)
    assert me.wait_ready() == "turn"
    me.play_turn()
    _follow([cy, dee], 7, deals)
    for page in (cy, dee):
        page.click("[data-testid=leave-review]")
    ann.wait_for_selector("[data-testid=review-banner]", state="detached")


def _qr_matrix(page: Any) -> list[list[bool]]:
    svg = page.locator("[data-testid=qr]")
    size = int(svg.get_attribute("data-size"))
    matrix = [[False] * size for _ in range(size)]
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg.locator("path").get_attribute("d")):
        matrix[int(y) - 4][int(x) - 4] = True
    return matrix


def test_a_transfer_link_moves_the_seat_and_the_first_browser_watches(room) -> None:
    ann = room["ann"]
    if ann.locator("[data-testid=review-pane]").count():  # the review test failed midway
        ann.click("[data-testid=leave-review]")
        ann.wait_for_selector("[data-testid=review-pane]", state="detached")
    old_key = ann.evaluate("() => JSON.parse(localStorage.getItem('krypkasino.player')).key")
    ann.click("[data-testid=open-transfer]")
    ann.wait_for_selector("[data-testid=qr]")
    link = ann.input_value("[data-testid=transfer-link]")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/continue#[\w-]{22}\.[\w-]{43}", link), link
    assert decode(_qr_matrix(ann)) == link, "the QR code carries the link"
    ann.click("[data-testid=close-transfer]")

    phone = room["pages"].new(PHONE)
    phone.goto(link)
    phone.wait_for_url(f"**/r/{room['id']}")
    other = Player(phone)
    other.wait_view()
    phone.wait_for_function("() => window.__krypkasino.store.get().view.you === 0")
    assert other.view["hand"], "the other device holds the seat's hand"
    ann.wait_for_selector("[data-testid=watching]")
    notice = ann.locator("[data-testid=error]").text_content()
    assert "other device" in notice
    assert ann.evaluate("() => window.__krypkasino.store.get().view.you") is None
    assert (
        ann.evaluate("() => JSON.parse(localStorage.getItem('krypkasino.player')).key") != old_key
    ), "the key moved away"
    assert (
        phone.evaluate("() => JSON.parse(localStorage.getItem('krypkasino.player')).key") == old_key
    ), "...to the other device"
    phone.goto("/")  # whose "My games" now lists the room
    phone.wait_for_selector(f"[data-testid=my-game][data-room='{room['id']}']")
    again = room["pages"].new(PHONE)  # the link worked once
    again.goto(link)
    again.wait_for_selector("[data-testid=error]")
    assert "used already" in again.locator("[data-testid=error]").text_content()
