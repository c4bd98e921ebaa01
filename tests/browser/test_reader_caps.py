"""Words drawn in capitals reach a screen reader as written (issue 50): a badge, a
table's column heads, the forced-play and last-packet marks are set in small capitals
(``font-variant-caps``), not upper-cased by ``text-transform``, which Chromium hands
to assistive technology upper-cased ("BOT", spelt out letter by letter by some
synthesizers).  Read from Chromium's own accessibility tree over CDP."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser


def spoken_texts(page: Any) -> list[str]:
    """The text of every static text node of the page's accessibility tree."""
    cdp = page.context.new_cdp_session(page)
    try:
        tree = cdp.send("Accessibility.getFullAXTree")
    finally:
        cdp.detach()
    return [
        str(n.get("name", {}).get("value", ""))
        for n in tree["nodes"]
        if n.get("role", {}).get("value") == "StaticText"
    ]


def test_a_bots_badge_and_the_score_heads_are_read_as_written(new_page) -> None:
    page = new_page()
    create_room(page, "Ann", players=2, bots=1, match_deals=1)
    Player(page).wait_view()
    badge = page.locator(".badge.bot").first
    badge.wait_for()
    assert badge.evaluate("(el) => getComputedStyle(el).fontVariantCaps") == "all-small-caps"
    texts = spoken_texts(page)
    assert "Bot" in texts, texts
    written = page.evaluate("() => document.body.textContent")
    # capitals the page did not write (a room's code is written so) came from CSS
    shouting = [t for t in texts if len(t) > 1 and t.isupper() and t not in written]
    assert shouting == [], f"upper-cased for the reader: {shouting}"
