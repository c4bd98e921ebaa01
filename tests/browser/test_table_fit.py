"""What a new user tripped over at the table (issue 12): the end-of-deal summary fits a
360 px phone in every language, winner lines have the player as subject, scores use
the true minus sign, a click on a card out of turn says why, and the capture choice or
an error never pushes the hand off a 1366x768 screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser

LANGS = ("en", "sv", "nb", "fr", "es", "pt")
LAPTOP = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 740}

OVERFLOW_JS = """(sel) => {
    const el = document.querySelector(sel);
    const out = [];
    for (const x of el.querySelectorAll('*')) {
        const r = x.getBoundingClientRect();
        if (r.width && (r.right > window.innerWidth + 0.5 || r.left < -0.5)) out.push(x.tagName + '.' + x.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
    if (el.scrollWidth > el.clientWidth + 1) out.push('scrolls sideways: ' + el.scrollWidth + ' > ' + el.clientWidth);
    if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
    return out;
}"""


def set_language(page: Any, lang: str) -> None:
    page.select_option(".lang-switch select", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def finished_match(new_page: Any, viewport: dict[str, int]) -> tuple[Any, Player]:
    """A one-deal single-pack match against a bot, played to its end; the summary open."""
    page = new_page(viewport)
    create_room(page, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=1)
    me = Player(page)
    me.wait_view()
    me.play_until_summary()
    page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")
    page.wait_for_selector("[data-testid=breakdown]")
    return page, me


def test_the_summary_fits_a_360_px_screen_in_every_language(new_page, screenshots) -> None:
    page, me = finished_match(new_page, NARROW)
    view = me.view
    for lang in LANGS:
        set_language(page, lang)
        problems = page.evaluate(OVERFLOW_JS, "[data-testid=deal-summary]")
        assert problems == [], f"{lang}: {problems}"
        # The deal score, the last column, is on screen whole.
        last = page.locator("[data-testid=breakdown] thead th").last.bounding_box()
        assert last["x"] >= 0 and last["x"] + last["width"] <= NARROW["width"], lang
        page.screenshot(path=str(screenshots / f"phone-summary-{lang}.png"))
    # Scores are written with the true minus sign, never a hyphen.
    text = page.locator("[data-testid=deal-summary]").inner_text()
    assert "-" not in "".join(ch for ch in text if not ch.isalpha()).replace("—", ""), text
    if any(t < 0 for t in view["cumulative"]):
        assert "\u2212" in text


WINNER_YOU = {
    "en": "You win the match!", "sv": "Du vinner matchen!", "nb": "Du vinner kampen!",
    "fr": "Vous gagnez la partie !", "es": "¡Ganas la partida!", "pt": "Você vence a partida!",
}


def test_winner_lines_have_the_player_as_subject(new_page) -> None:
    page, me = finished_match(new_page, PHONE)
    view = me.view
    for lang in LANGS:
        set_language(page, lang)
        line = page.locator("[data-testid=winner-line]").inner_text()
        if view["winners"] == [view["you"]]:
            assert line == WINNER_YOU[lang]
        else:
            assert "Ann" not in line
        for wrong in ("you wins", "vous gagne ", "tú gana", "deg vinner", "du vinner kampen!" if lang == "sv" else "\0"):
            assert wrong not in line.lower(), (lang, line)
