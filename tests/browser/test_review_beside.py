"""The shared review beside the live table on a laptop, a full-screen sheet on a phone
(issue 47, finding 8).

Before, "Review together" opened a dialog over the live table at every size: on a
1366x768 laptop it covered the felt and the hand (a player whose turn came had to
leave the review to play), and on a phone it floated inside a margin over the table.
Now from 1100 px wide the review takes the side column's place and the board keeps the
rest: no card of the felt or the hand lies under it, the page neither grows nor scrolls
sideways, and the table can be played with the review open.  On a phone, upright or
sideways, it fills the screen with "Back to the table" always at its top.  The focus
goes into the review when it opens and back to the control that opened it when it
closes (Escape or "Back to the table").

Uses the history tests' room: Ann's first deal is over, the second is in play.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import Player
from tests.browser.test_history import room
from tests.browser.test_looks import shoot
from tests.browser.waits import wait_still

pytestmark = pytest.mark.browser
__all__ = ["room"]  # the history tests' module fixture: a finished first deal

LAPTOP = {"width": 1366, "height": 768}
SIDEWAYS = {"width": 740, "height": 360}
PANE = "[data-testid=review-pane]"

# Every card of the live felt and hand, at five points each (the centre and four
# points a fifth in from the corners): what lies there, and whether the review does.
COVERED_JS = """() => {
    const pane = document.querySelector('[data-testid=review-pane]');
    const p = pane.getBoundingClientRect();
    const board = document.querySelector('.game-grid > .board');
    const cards = [...board.querySelectorAll('[data-testid=table] li, [data-testid=hand] li')];
    const out = {cards: cards.length, covered: [], unseen: [],
                 pane: {left: p.left, top: p.top, right: p.right, bottom: p.bottom, width: p.width}};
    for (const li of cards) {
        const r = li.getBoundingClientRect();
        const card = li.dataset.card ? li : li.querySelector('[data-card]');
        if (!card) continue;  // the empty felt's placeholder
        const name = card.dataset.card;
        const at = [[.5, .5], [.2, .2], [.8, .2], [.2, .8], [.8, .8]];
        for (const [fx, fy] of at) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
                if (fx === .5) out.unseen.push(`${name} off screen at ${Math.round(x)},${Math.round(y)}`);
                continue;
            }
            const stack = document.elementsFromPoint(x, y);
            if (stack.some((el) => el.closest('.review-dock, .review-overlay, [data-testid=review-pane]')))
                out.covered.push(`${name} at ${Math.round(x)},${Math.round(y)}`);
            if (fx === .5 && !(stack[0] && board.contains(stack[0])))
                out.unseen.push(`${name}: ${stack[0] && stack[0].className} on top`);
        }
    }
    return out;
}"""

PAGE_SIZE_JS = """() => ({w: document.scrollingElement.scrollWidth, h: document.scrollingElement.scrollHeight,
                        iw: innerWidth, ih: innerHeight})"""

# What reaches below the screen's foot: the outermost such boxes (a child of one is left
# out), so that a page that grows says which part made it grow.  Loaded runs found the
# page 38 and 47 px taller with the review open; a quiet one named the review's pane,
# whose screen-reader texts were placed outside the dock's scroll box (ESCAPED_JS).
BELOW_JS = """() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        const up = el.parentElement && el.parentElement.getBoundingClientRect();
        if (r.height > 0 && r.bottom > innerHeight + 0.5 && !(up && up.bottom > innerHeight + 0.5))
            out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
                     + `[${el.dataset.testid || ''}] ${Math.round(r.top)}..${Math.round(r.bottom)}`);
    }
    return out;
}"""

# The screen-reader-only texts of the review (a card's name, written out) placed
# against a box outside the review's own scroll box: the dock scrolls (overflow: auto),
# but an absolutely placed child is clipped only by a scroll box it is placed against,
# so each such text below the screen's foot made the page taller (the page that grew
# by 38 and 47 px in loaded runs, and once in a quiet one, when a deal's cards reached
# that low).
ESCAPED_JS = """() => {
    const dock = document.querySelector('.review-dock');
    return [...dock.querySelectorAll('.sr-only')]
        .filter((el) => !(el.offsetParent && dock.contains(el.offsetParent)))
        .map((el) => `${el.textContent} against ${el.offsetParent && el.offsetParent.className}`);
}"""

# The sheet's box, and whether "Back to the table" is on screen and on top at its centre.
SHEET_JS = """() => {
    const pane = document.querySelector('[data-testid=review-pane]');
    const r = pane.getBoundingClientRect();
    const close = pane.querySelector('[data-testid=leave-review]').getBoundingClientRect();
    const x = close.left + close.width / 2, y = close.top + close.height / 2;
    const top = document.elementFromPoint(x, y);
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            closeOnTop: !!(top && top.closest('[data-testid=leave-review]')),
            closeInView: close.top >= 0 && close.bottom <= innerHeight && close.left >= 0 && close.right <= innerWidth};
}"""

FOCUS_JS = """() => { const a = document.activeElement;
    return {inPane: !!a.closest('[data-testid=review-pane]'), testid: a.dataset ? a.dataset.testid || '' : '',
            match: a.dataset ? a.dataset.match || '' : '', deal: a.dataset ? a.dataset.deal || '' : ''}; }"""


def open_review(page: Any) -> None:
    """Start a review of deal 1 from the side column's "Review a deal together"."""
    if page.locator(PANE).count():  # an earlier test failed with the review open
        page.click(f"{PANE} [data-testid=leave-review]")
        page.wait_for_selector(PANE, state="detached")
    picker = page.locator("[data-testid=review-picker]")
    if not picker.evaluate("(d) => d.open"):
        page.click("[data-testid=review-picker] summary")
    page.click("[data-testid=start-review][data-match='1'][data-deal='1']")
    page.wait_for_selector(f"{PANE}[data-driving=yes] [data-testid=replay-board]")


def assert_focus_back_on_opener(page: Any) -> None:
    page.wait_for_selector(PANE, state="detached")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.dataset.testid === 'start-review'"
    )
    focus = page.evaluate(FOCUS_JS)
    assert (focus["testid"], focus["match"], focus["deal"]) == ("start-review", "1", "1"), focus


def test_on_a_laptop_the_review_sits_beside_the_table_which_stays_in_play(
    room: dict[str, Any], screenshots: Any
) -> None:
    ann = room["ann"]
    ann.set_viewport_size(LAPTOP)
    me = Player(ann)
    assert me.wait_ready() == "turn"
    wait_still(ann)
    before = ann.evaluate(PAGE_SIZE_JS)
    open_review(ann)
    wait_still(ann)  # the board narrows to the review's side and is fitted again
    seen = ann.evaluate(COVERED_JS)
    assert seen["cards"] > 0
    escaped = ann.evaluate(ESCAPED_JS)
    assert escaped == [], f"texts placed outside the review's scroll box: {escaped[:5]}"
    assert seen["covered"] == [], f"cards under the review: {seen['covered']}"
    assert seen["unseen"] == [], f"cards not seen: {seen['unseen']}"
    pane = seen["pane"]
    assert pane["width"] >= 360 and pane["right"] <= LAPTOP["width"] + 0.5, pane
    board = ann.locator(".game-grid > .board").bounding_box()
    assert board["x"] + board["width"] <= pane["left"] + 0.5, (board, pane)
    after = ann.evaluate(PAGE_SIZE_JS)
    assert after["w"] <= after["iw"], f"the page scrolls sideways: {after}"
    if after["h"] > max(before["h"], after["ih"]):
        shoot(ann, screenshots, "laptop-review-beside-grown")
        grew = {"still": wait_still(ann), "below": ann.evaluate(BELOW_JS)}
        raise AssertionError(f"the page grew: {before} -> {after}; {grew}")
    assert ann.evaluate(FOCUS_JS)["inPane"], "the focus goes into the review"
    assert ann.get_attribute(PANE, "aria-modal") == "false", "the table stays in play"
    shoot(ann, screenshots, "laptop-review-beside")

    # The table is played with the review open (a click on a card of the hand), and
    # the review stays, on the position its driver shows.
    me.play_turn()
    assert ann.locator(PANE).count() == 1
    # An arrow key in the hand moves along the hand, and does not step the review.
    ann.locator("[data-testid=hand] button.card-btn").first.focus()
    ann.keyboard.press("ArrowRight")
    assert ann.evaluate("() => !!document.activeElement.closest('[data-testid=hand]')")
    ann.click(f"{PANE} [data-testid=step-next]")
    shown = ann.wait_for_function(
        """(sel) => { const r = window.__krypkasino.store.get().review.review;
            const pane = document.querySelector(sel);  // a throw would end the wait
            if (!r || !pane) return false;
            const step = Number(pane.dataset.step);
            return r.step === step && step > 0 && step; }""",
        arg=PANE,
    ).json_value()
    assert shown == 1, "the arrow key at the hand stepped the review"
    ann.keyboard.press("Escape")
    assert_focus_back_on_opener(ann)
    assert ann.locator(".game-grid > .side").is_visible(), "the side column is back"


@pytest.mark.parametrize(
    ("size", "close"), [(PHONE, "button"), (SIDEWAYS, "Escape")], ids=["360x740", "740x360"]
)
def test_on_a_phone_the_review_is_a_full_screen_sheet_that_closes_to_the_table(
    room: dict[str, Any], screenshots: Any, size: dict[str, int], close: str
) -> None:
    ann = room["ann"]
    ann.set_viewport_size(size)
    open_review(ann)
    wait_still(ann)
    sheet = ann.evaluate(SHEET_JS)
    box = (sheet["left"], sheet["top"], sheet["right"], sheet["bottom"])
    assert all(abs(a - b) <= 1 for a, b in zip(box, (0, 0, size["width"], size["height"]))), (
        f"the sheet does not fill the {size['width']}x{size['height']} screen: {box}"
    )
    assert sheet["closeInView"] and sheet["closeOnTop"], sheet
    assert ann.evaluate(FOCUS_JS)["inPane"], "the focus goes into the review"
    assert ann.get_attribute(PANE, "aria-modal") == "true", "the table is under the sheet"
    shoot(ann, screenshots, f"phone-review-sheet-{size['width']}x{size['height']}")
    # Scrolled to its end, "Back to the table" is still at the top of the sheet.
    ann.eval_on_selector(PANE, "(p) => { p.scrollTop = p.scrollHeight; }")
    ann.wait_for_function("(s) => document.querySelector(s).scrollTop > 0", arg=PANE)
    sheet = ann.evaluate(SHEET_JS)
    assert sheet["closeInView"] and sheet["closeOnTop"], f"scrolled: {sheet}"

    if close == "button":
        ann.click(f"{PANE} [data-testid=leave-review]")
    else:
        ann.keyboard.press("Escape")
    assert_focus_back_on_opener(ann)
    assert ann.locator(".game-grid > .board .felt").is_visible()
    assert not ann.locator(".review-overlay, .review-dock").count()
