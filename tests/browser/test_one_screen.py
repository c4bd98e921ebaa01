"""One screen (issue 33): at 360x740 the table never scrolls sideways, whatever the
hand's size and the language, and every card of the hand keeps a strip of at least
44 px that a tap lands on; at 1366x768 the room is one screen high (the side column
scrolls inside itself) and the capture chooser opens beside the hand, not over the
scores; on a phone the header's badges and the language menu are whole; notices never
cover the last play.

Hands of 2 to 13 cards cannot all come from a real deal (R2.2: at most six), so the
hand is given to the page's store as a view, the way the client would receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot
from tests.browser.test_table_fit import LANGS, set_language
from tests.browser.waits import wait_still

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 740}
MIN_STRIP = 44
CARDS = ["AS", "2H", "3C", "4D", "5S", "6H", "7C", "8D", "9S", "10H", "JC", "QD", "KS"]

# The hand given to the store: every other card legal (a creep), so the hand shows
# raised and dimmed cards and hint badges as in a real turn.
GIVE_HAND = """(cards) => { const s = window.__krypkasino.store;
    const v = window.__realView || (window.__realView = s.get().view);
    s.set({view: {...v, hand: cards, to_move: v.you, deal_over: false,
        legal: cards.filter((c, i) => i % 2 === 0).map((c) => ({card: c, take: []}))}}); }"""

# Each card of the hand: its strip (the button), the face's box, and whether taps
# across the strip (left edge to right edge, at two heights) land on that card.
HAND_JS = """() => {
    const hand = document.querySelector('[data-testid=hand]');
    const items = [...hand.querySelectorAll('li')];
    return items.map((li, i) => {
        const btn = li.querySelector('button.card-btn');
        const b = btn.getBoundingClientRect();
        const face = btn.querySelector('.card-svg').getBoundingClientRect();
        const next = items[i + 1] && items[i + 1].querySelector('.card-svg').getBoundingClientRect();
        // The exposed part: up to the next card's face when it lies over this one.
        const covered = next && Math.abs(next.top - face.top) < face.height / 2 ? next.left : face.right;
        const exposed = Math.min(face.right, covered) - face.left;
        const misses = [];
        for (const fy of [0.3, 0.7]) {
            const y = face.top + face.height * fy;
            for (const x of [face.left + 2, face.left + exposed / 2, face.left + exposed - 2]) {
                const hit = document.elementFromPoint(x, y);
                if (!hit || !btn.contains(hit)) misses.push(`${Math.round(x)},${Math.round(y)}`);
            }
        }
        return {card: btn.dataset.card, exposed, left: face.left, right: face.right,
                row: Math.round(li.getBoundingClientRect().top), strip: b.width, misses};
    });
}"""


# Everything drawn inside `sel` lies within the screen's width, and nothing scrolls
# sideways (visually hidden text for screen readers, one pixel square, aside).
OVERFLOW_JS = """(sel) => {
    const root = document.querySelector(sel);
    const out = [];
    for (const x of root.querySelectorAll('*')) {
        if (x.closest('.sr-only')) continue;
        const r = x.getBoundingClientRect();
        if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5))
            out.push(`${x.tagName}.${x.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    if (root.scrollWidth > root.clientWidth + 1)
        out.push(`scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    if (document.scrollingElement.scrollWidth > innerWidth) out.push('page scrolls sideways');
    return out;
}"""


CARDS_INSIDE_JS = """(w) => [...document.querySelectorAll('[data-testid=hand] .card-svg')].every((f) => {
    const r = f.getBoundingClientRect(); return r.left >= -0.5 && r.right <= w + 0.5; })"""


def seated(new_page: Any, viewport: dict[str, int]) -> tuple[Any, Player]:
    """A two-player room against a bot (the one-click default), at this seat's turn."""
    page = new_page(viewport)
    create_room(page, "Ann", players=2, bots=1, match_deals=3)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    wait_still(page)
    return page, me


def give_hand(page: Any, cards: list[str]) -> list[dict[str, Any]]:
    """Show `cards` as the hand and wait until the hand has been fitted to its width."""
    page.evaluate(GIVE_HAND, cards)
    page.wait_for_function(
        """(n) => { const h = document.querySelector('[data-testid=hand]');
            return h && h.querySelectorAll('li').length === n && h.style.gridTemplateColumns; }""",
        arg=len(cards),
    )
    wait_still(page)
    hand: list[dict[str, Any]] = page.evaluate(HAND_JS)
    return hand


def check_hand(cards: list[dict[str, Any]], width: int, where: str) -> None:
    for i, c in enumerate(cards):
        label = f"{where}, card {i + 1} of {len(cards)} ({c['card']})"
        assert c["left"] >= -0.5 and c["right"] <= width + 0.5, f"{label} off screen: {c}"
        assert c["exposed"] >= MIN_STRIP - 0.5, f"{label}: only {c['exposed']:.1f} px exposed"
        assert c["strip"] >= MIN_STRIP - 0.5, f"{label}: a {c['strip']:.1f} px button"
        assert not c["misses"], f"{label}: taps at {c['misses']} land elsewhere"


def test_hands_of_2_to_13_cards_fit_a_360_px_phone_in_every_language(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    page, _ = seated(new_page, NARROW)
    # The one-click default game (two players, six cards) fits as dealt.
    assert page.evaluate(OVERFLOW_JS, ".page.game") == []
    for lang in LANGS:
        set_language(page, lang)
        for n in range(2, 14):
            cards = give_hand(page, CARDS[:n])
            check_hand(cards, NARROW["width"], f"{lang}, {n} cards")
            assert page.evaluate(OVERFLOW_JS, ".page.game") == [], (lang, n)
            if n > 8:  # too many for one row at 360 px: overlapped rows
                assert len({c["row"] for c in cards}) >= 2, (lang, n)
            if lang == "en" and n in (6, 13):
                shoot(page, screenshots, f"phone-hand-{n}")
    assert not page.errors


def test_the_hand_refits_when_the_screen_narrows_and_widens_again(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    """A turned phone or a narrowed window: the hand is fitted to its width when the
    width changes, so going from a laptop's width to a phone's nothing scrolls sideways.
    Before, the hand's columns (fitted on the wide screen, in px) held the board at the
    old width, so the hand never saw a resize; a CI run caught the sweep call pushed
    36 px past the phone's edge by it."""
    page, _ = seated(new_page, LAPTOP)
    for n in (6, 13):
        wide = give_hand(page, CARDS[:n])
        check_hand(wide, LAPTOP["width"], f"laptop, {n} cards")
        page.set_viewport_size(NARROW)
        # refitted: every card's face inside the screen (the hand's own box narrows a
        # frame before its cards are refitted; a CI run under load measured between)
        page.wait_for_function(CARDS_INSIDE_JS, arg=NARROW["width"])
        narrow = page.evaluate(HAND_JS)
        check_hand(narrow, NARROW["width"], f"laptop turned phone, {n} cards")
        assert page.evaluate(OVERFLOW_JS, ".page.game") == [], n
        if n == 13:
            assert len({c["row"] for c in narrow}) >= 2  # refitted in rows, as a phone's
            shoot(page, screenshots, "phone-after-laptop-hand-13")
        page.set_viewport_size(LAPTOP)  # and back: one row again, side by side when 6
        page.wait_for_function(
            "(n) => new Set([...document.querySelectorAll('[data-testid=hand] li')]"
            ".map((li) => Math.round(li.getBoundingClientRect().top))).size === 1",
            arg=n,
        )
        check_hand(page.evaluate(HAND_JS), LAPTOP["width"], f"phone turned laptop, {n} cards")
    assert not page.errors


@pytest.mark.parametrize("players", [3, 4, 6])
def test_tables_of_more_players_fit_a_360_px_phone_in_every_language(
    new_page: Callable[..., Any], players: int
) -> None:
    """The opponents' row too: no seat off screen, nothing scrolling sideways."""
    page = new_page(NARROW)
    create_room(page, "Ann", players=players, bots=players - 1)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    for lang in LANGS:
        set_language(page, lang)
        assert page.evaluate(OVERFLOW_JS, ".page.game") == [], (players, lang)
        check_hand(page.evaluate(HAND_JS), NARROW["width"], f"{players} players, {lang}")
    assert not page.errors


def test_a_13_card_hand_overlaps_in_one_row_on_a_laptop_screen(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    page, _ = seated(new_page, LAPTOP)
    six = give_hand(page, CARDS[:6])
    # Six cards have room side by side: nothing overlaps.
    assert all(c["exposed"] == pytest.approx(c["right"] - c["left"]) for c in six)
    cards = give_hand(page, CARDS)
    check_hand(cards, LAPTOP["width"], "laptop, 13 cards")
    assert len({c["row"] for c in cards}) == 1, "one row"
    assert cards[0]["exposed"] < cards[0]["right"] - cards[0]["left"], "overlapped"
    # The hovered card rises, and stays the card under the pointer.
    legal = page.locator("[data-testid=hand] li.legal button.card-btn").nth(2)
    before = legal.bounding_box()
    legal.hover(position={"x": 10, "y": 40})
    page.wait_for_function(
        "(y) => document.querySelectorAll('[data-testid=hand] li.legal button')[2]"
        ".getBoundingClientRect().y < y - 3",
        arg=before["y"],
    )
    assert page.evaluate("() => document.querySelector(':hover.card-btn') !== null")
    shoot(page, screenshots, "laptop-hand-13")
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
    assert not page.errors


SCROLLS_JS = """() => ({
    page: document.scrollingElement.scrollHeight - innerHeight,
    wide: document.scrollingElement.scrollWidth - innerWidth,
    header: document.querySelector('.app-header').getBoundingClientRect().top,
    footer: document.querySelector('[data-testid=footer]').getBoundingClientRect().bottom,
})"""


def test_the_room_fits_a_laptop_screen_and_the_side_column_scrolls_inside_itself(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    page, _ = seated(new_page, LAPTOP)
    sizes = page.evaluate(SCROLLS_JS)
    assert sizes["page"] <= 0 and sizes["wide"] <= 0, sizes
    assert sizes["footer"] <= LAPTOP["height"] + 0.5, "the version line is on screen"
    side = page.locator("aside.side")
    box = side.bounding_box()
    assert box["y"] + box["height"] <= LAPTOP["height"]
    # The side column holds more than the screen: it scrolls, the page does not.
    overflow = side.evaluate(
        "(el) => [getComputedStyle(el).overflowY, el.scrollHeight, el.clientHeight]"
    )
    assert overflow[0] in ("auto", "scroll") and overflow[1] > overflow[2], overflow
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 2000)
    page.wait_for_function("() => document.querySelector('aside.side').scrollTop > 0")
    chat = page.locator(".chat-form").bounding_box()
    assert chat["y"] + chat["height"] <= box["y"] + box["height"] + 1, "the chat is reached"
    assert page.evaluate(SCROLLS_JS)["header"] == 0
    assert page.evaluate("() => window.scrollY") == 0
    # A dialog leaves the header where it is.
    page.click("[data-testid=open-settings]")
    page.wait_for_selector("[data-testid=settings]")
    assert page.evaluate(SCROLLS_JS)["header"] == 0
    assert page.evaluate("() => window.scrollY") == 0
    shoot(page, screenshots, "laptop-one-screen-dialog")
    assert not page.errors


MULTI = {
    "table": ["2H", "3C", "5D", "5S"],
    "hand": ["5H", "9C", "KD", "4S", "8H", "JC"],
    "legal": [
        {"card": "5H", "take": ["5D"]},
        {"card": "5H", "take": ["5S"]},
        {"card": "5H", "take": ["2H", "3C"]},
        {"card": "9C", "take": []},
    ],
}


def intersects(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_capture_chooser_opens_beside_the_hand_not_over_the_scores(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    page, _ = seated(new_page, LAPTOP)
    page.evaluate(
        """(m) => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, ...m, to_move: v.you, set_aside_spades: [], set_aside_other: []}}); }""",
        MULTI,
    )
    page.wait_for_selector('[data-testid=hand] li.legal button[data-card="5H"]')
    before = page.locator("[data-testid=hand]").bounding_box()
    page.click('[data-testid=hand] li.legal button[data-card="5H"]')
    page.wait_for_selector("[data-testid=chooser]")
    chooser = page.locator("[data-testid=chooser]").bounding_box()
    scores = page.locator("[data-testid=scores]").bounding_box()
    assert not intersects(chooser, scores), (chooser, scores)
    assert chooser["y"] + chooser["height"] <= LAPTOP["height"]
    # Beside the hand: level with it, and clear of every card of it.
    hand = page.locator("[data-testid=hand]").bounding_box()
    assert hand["y"] == pytest.approx(before["y"], abs=1), "the hand stays where it was"
    assert (
        chooser["y"] < hand["y"] + hand["height"] and chooser["y"] + chooser["height"] > hand["y"]
    )
    for face in page.locator("[data-testid=hand] .card-svg").all():
        assert not intersects(face.bounding_box(), chooser)
    assert page.evaluate(SCROLLS_JS)["page"] <= 0
    assert page.locator("[data-testid=option]").count() == 3
    shoot(page, screenshots, "laptop-chooser-beside-hand")
    page.click("[data-testid=cancel-choice]")
    assert page.locator("[data-testid=chooser]").count() == 0
    assert not page.errors


CLIPPED_JS = """(sels) => {
    const out = [];
    for (const sel of sels) {
        const el = document.querySelector(sel);
        if (!el) { out.push(`${sel}: missing`); continue; }
        const r = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 0.5)
            out.push(`${sel}: ${el.scrollWidth} > ${el.clientWidth}`);
        if (r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5)
            out.push(`${sel}: ${Math.round(r.left)}..${Math.round(r.right)} off screen`);
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
            const cs = getComputedStyle(p);
            if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
            const q = p.getBoundingClientRect();
            if (r.left < q.left - 0.5 || r.right > q.right + 0.5 || r.top < q.top - 0.5
                || r.bottom > q.bottom + 0.5)
                out.push(`${sel}: cut by ${p.tagName}.${p.className}`);
        }
    }
    return out;
}"""

# The language menu's visible label, whole in its box.
LANG_FITS_JS = """() => {
    const code = document.querySelector('.lang-switch .lang-code');
    const sel = document.querySelector('.lang-switch select');
    const shown = getComputedStyle(code).display !== 'none' ? code : sel;
    if (shown === sel) {
        const cs = getComputedStyle(sel);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        const w = ctx.measureText(sel.options[sel.selectedIndex].textContent).width;
        return w <= room ? null : `select: ${Math.round(w)} > ${Math.round(room)}`;
    }
    return code.textContent.trim().toLowerCase() === document.documentElement.lang ? null
        : `label says ${code.textContent}`;
}"""


def test_nothing_in_the_phone_header_is_clipped_in_any_language(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    page, me = seated(new_page, NARROW)
    room = page.url
    watcher = new_page(NARROW)
    watcher.goto(room + "?watch=1")
    watcher.wait_for_selector("[data-testid=watching]")
    reconnecting = """() => window.__krypkasino.store.set({conn: 'reconnecting'})"""
    for lang in LANGS:
        for p in (page, watcher):
            set_language(p, lang)
            p.evaluate(reconnecting)
            p.wait_for_selector(".conn.reconnecting")
            sels = [".app-header .lang-switch", ".app-header .conn.reconnecting", ".room-code"]
            if p is watcher:
                sels.append("[data-testid=watching]")
            assert p.evaluate(CLIPPED_JS, sels) == [], lang
            assert p.evaluate(OVERFLOW_JS, ".app-header") == [], lang
            assert p.evaluate(LANG_FITS_JS) is None, lang
    shoot(watcher, screenshots, "phone-header-watching-reconnecting")
    # The menu still offers every language under its whole name.
    names = page.locator(".lang-switch select option").all_inner_texts()
    assert "Português" in names and "Norsk bokmål" in names
    for p in (page, watcher):
        p.evaluate("() => window.__krypkasino.store.set({conn: 'live'})")
        assert not p.errors


@pytest.mark.parametrize("viewport", [LAPTOP, NARROW], ids=["laptop", "phone"])
def test_notices_leave_the_last_play_in_sight(
    new_page: Callable[..., Any], screenshots: Path, viewport: dict[str, int]
) -> None:
    page, me = seated(new_page, viewport)
    me.play_turn(prefer_creep=True)
    me.wait_ready()
    page.wait_for_selector("[data-testid=last-move]")
    hand = page.locator("[data-testid=hand]").bounding_box()
    # Out of turn: a click says whose turn it is; a refusal from the server too;
    # between deals the bar says whom the next deal waits for.
    page.evaluate(
        """() => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, to_move: (v.you + 1) % v.players, legal: [],
            between: {ready: [], deadline: Date.now() + 60000}},
            error: {code: 'not_maximal'}}); }"""
    )
    page.locator("[data-testid=hand] button.card-btn").first.click(force=True)
    page.wait_for_selector("[data-testid=local-note]")
    page.wait_for_selector("[data-testid=between-deals]")
    banner = page.locator("[data-testid=last-move]").bounding_box()
    for sel in ("[data-testid=local-note]", "[data-testid=error]", "[data-testid=between-deals]"):
        box = page.locator(sel).bounding_box()
        assert not intersects(box, banner), (sel, box, banner)
        assert box["y"] + box["height"] <= viewport["height"] or viewport is NARROW
    if viewport is LAPTOP:
        assert page.locator("[data-testid=hand]").bounding_box() == hand
        assert page.evaluate(SCROLLS_JS)["page"] <= 0
    else:
        assert page.evaluate(OVERFLOW_JS, ".page.game") == []
    name = "laptop" if viewport is LAPTOP else "phone"
    shoot(page, screenshots, f"{name}-notices-under-last-play")
    assert not page.errors
