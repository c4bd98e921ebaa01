"""What a new user tripped over at the table (issue 12): the end-of-deal summary fits a
360 px phone in every language, winner lines have the player as subject, scores use
the true minus sign, a click on a card out of turn says why, and the capture choice or
an error never pushes the hand off a 1366x768 screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import Player, create_room, open_create_form
from tests.browser.waits import wait_still

pytestmark = pytest.mark.browser

LANGS = ("en", "sv", "nb", "fr", "es", "pt")
LAPTOP = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 740}

OVERFLOW_JS = """(sel) => {
    const el = document.querySelector(sel);
    const out = [];
    for (const x of el.querySelectorAll('*')) {
        const r = x.getBoundingClientRect();
        if (r.width && (r.right > window.innerWidth + 0.5 || r.left < -0.5))
            out.push(`${x.tagName}.${x.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    if (el.scrollWidth > el.clientWidth + 1)
        out.push(`scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
    if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
    return out;
}"""


def set_language(page: Any, lang: str) -> None:
    page.select_option(".lang-switch select", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    wait_still(page)  # the new words' widths fit the hand and the table again


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
    "en": "You win the match!",
    "sv": "Du vinner matchen!",
    "nb": "Du vinner kampen!",
    "fr": "Vous gagnez la partie\u00a0!",
    "es": "¡Ganas la partida!",
    "pt": "Você vence a partida!",
}


def test_winner_lines_have_the_player_as_subject(new_page) -> None:
    page, me = finished_match(new_page, PHONE)
    # Who won depends on the deal: show each outcome by giving the finished view
    # each list of winners in turn (the words are all the client's own).
    set_winners = """(w) => { const s = window.__krypkasino.store;
        s.set({view: {...s.get().view, winners: w}}); }"""
    for lang in LANGS:
        set_language(page, lang)
        page.evaluate(set_winners, [0])
        line = page.locator("[data-testid=winner-line]")
        assert line.inner_text() == WINNER_YOU[lang]
        page.evaluate(set_winners, [0, 1])
        shared = line.inner_text()
        assert BOT_1[lang] in shared and "Ann" not in shared, (lang, shared)
        assert shared == SHARED_YOU[lang]
        page.evaluate(set_winners, [1])
        assert BOT_1[lang] in line.inner_text() and "Ann" not in line.inner_text()
        for wrong in ("you wins", "vous gagne ", "tú gana", "deg vinner"):
            assert wrong not in (WINNER_YOU[lang] + shared).lower(), (lang, shared)


# The server names the bot "Bot 1"; the client says it in the reader's language.
BOT_1 = {
    "en": "Bot 1",
    "sv": "Dator 1",
    "nb": "Maskin 1",
    "fr": "Robot 1",
    "es": "Bot 1",
    "pt": "Bot 1",
}

SHARED_YOU = {
    "en": "You share the win with Bot 1!",
    "sv": "Du delar segern med Dator 1!",
    "nb": "Du deler seieren med Maskin 1!",
    "fr": "Vous partagez la victoire avec Robot 1\u00a0!",
    "es": "¡Compartes la victoria con Bot 1!",
    "pt": "Você divide a vitória com Bot 1!",
}

SELECT_FITS_JS = """() => {
    const out = [];
    const ctx = document.createElement('canvas').getContext('2d');
    for (const sel of document.querySelectorAll('.field-row select')) {
        const cs = getComputedStyle(sel);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        for (const o of sel.options) {
            const w = ctx.measureText(o.textContent).width;
            if (w > room)
                out.push(`${sel.id}: "${o.textContent}" ${Math.round(w)} > ${Math.round(room)}`);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, NARROW], ids=["laptop", "phone"])
def test_the_lobby_selects_show_their_whole_labels(new_page, viewport) -> None:
    page = new_page(viewport)
    page.goto("/")
    open_create_form(page)
    for lang in LANGS:
        set_language(page, lang)
        assert page.evaluate(SELECT_FITS_JS) == [], lang


def hand_on_screen(page: Any) -> bool:
    box = page.locator("[data-testid=hand]").bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]


def test_a_click_out_of_turn_says_why_and_notices_keep_the_hand_on_a_laptop_screen(
    new_page,
) -> None:
    page = new_page(LAPTOP)
    create_room(page, "Ann", players=4, bots=3)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    me.play_turn(prefer_creep=True)
    me.wait_ready()
    assert hand_on_screen(page)
    # An error from the server floats above the hand, which stays where it was.
    before = page.locator("[data-testid=hand]").bounding_box()
    page.evaluate("() => window.__krypkasino.store.set({error: {code: 'not_maximal'}})")
    page.wait_for_selector("[data-testid=error]")
    assert page.locator("[data-testid=hand]").bounding_box() == before
    assert hand_on_screen(page)
    page.click("[data-testid=error] .btn-x")
    # Out of turn: freeze the bots' answers by reading the view at a moment it is
    # someone else's turn; a click on a card then says whose turn it is.
    page.evaluate("""() => { const s = window.__krypkasino.store; const v = s.get().view;
        window.__realView = v;
        s.set({view: {...v, to_move: (v.you + 1) % v.players, legal: []}}); }""")
    # aria-disabled, yet clickable (force: Playwright would wait for it to be enabled)
    page.locator("[data-testid=hand] button.card-btn").first.click(force=True)
    note = page.locator("[data-testid=local-note]")
    assert "turn" in note.inner_text()
    assert hand_on_screen(page)
    page.evaluate("() => window.__krypkasino.store.set({view: window.__realView})")


def test_the_capture_choice_leaves_the_hand_where_it_is_on_a_laptop_screen(
    new_page, screenshots
) -> None:
    """The chooser is the page's own: it opens from the view's legal moves when a card
    has several captures.  So the position is put on the table rather than waited for
    (before, bots and clicks played up to ten random deals until one came up, two
    minutes of a loaded machine); tests/browser/test_play.py plays a real one."""
    page = new_page(LAPTOP)
    create_room(page, "Ann", players=2, bots=1, match_deals=3)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    page.evaluate(
        """(choice) => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, hand: [choice.card, ...v.hand.slice(1)], table: choice.table,
            legal: choice.legal}}); }""",
        {
            "card": "7H",
            "table": ["7C", "3S", "4D"],
            "legal": [
                {"card": "7H", "take": ["7C"], "kind": "capture", "points": 0, "sweep": 0},
                {"card": "7H", "take": ["3S", "4D"], "kind": "capture", "points": 0, "sweep": 0},
            ],
        },
    )
    page.wait_for_function("() => document.querySelectorAll('[data-testid=table] li').length === 3")
    before = page.locator("[data-testid=hand]").bounding_box()
    me.click_card("7H")
    page.wait_for_selector("[data-testid=chooser]")
    assert page.locator("[data-testid=option]").count() == 2
    after = page.locator("[data-testid=hand]").bounding_box()
    assert after["y"] == pytest.approx(before["y"], abs=20)
    assert hand_on_screen(page)
    chooser = page.locator("[data-testid=chooser]").bounding_box()
    assert chooser["y"] + chooser["height"] <= LAPTOP["height"]
    page.screenshot(path=str(screenshots / "laptop-choice-light.png"))
    assert not page.errors


CROWDED_TABLE = [f"{r}{s}" for s in "CDHS" for r in ("2", "3", "4", "5", "6")][:20]


def test_a_crowded_table_stays_inside_the_felt_and_the_hand_on_a_laptop_screen(
    new_page, screenshots
) -> None:
    """Twenty cards on the table and pictures set aside: the felt takes the height the
    seats and the hand leave, scrolling inside itself if it must, and the hand does not
    move (before, the felt grew and pushed the hand toward the screen's lower edge)."""
    page = new_page(LAPTOP)
    create_room(page, "Ann", players=2, bots=1, match_deals=3)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    before = page.locator("[data-testid=hand]").bounding_box()
    page.evaluate(
        """(table) => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, table, set_aside_spades: ['JS'], set_aside_other: ['QH', 'KD']}}); }""",
        CROWDED_TABLE,
    )
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=table] li').length === n",
        arg=len(CROWDED_TABLE),
    )
    assert page.locator("[data-testid=hand]").bounding_box() == before
    assert hand_on_screen(page)
    felt = page.locator(".felt").bounding_box()
    assert felt["y"] + felt["height"] <= before["y"]
    page.screenshot(path=str(screenshots / "laptop-crowded-table.png"))
    # The last table card can be scrolled into view within the felt.
    last = page.locator("[data-testid=table] li").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box["y"] >= felt["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"] + 1
    assert hand_on_screen(page)


def test_the_felts_top_row_stays_on_a_360_px_phone_with_every_notice_at_once(
    new_page, screenshots
) -> None:
    """The moment with the most to say: the last packet just dealt, the dealer's pictures
    set aside and a sweep call on four values. On a phone the stock and the set-aside
    keep the first row and the notices wrap beneath them in every language; before, the
    row never wrapped and pushed the call past the screen's edge (a CI run caught it)."""
    page = new_page(NARROW)
    create_room(page, "Ann", players=2, bots=1, match_deals=3)
    me = Player(page)
    me.wait_ready()
    page.evaluate(
        """() => { const s = window.__krypkasino.store; const v = s.get().view;
        const after = (v.log || []).length;
        s.set({view: {...v, last_packet: true, set_aside_spades: ['JS', 'QS'],
          set_aside_other: ['QH', 'KH', 'QD', 'KD'],
          packets: [...(v.packets || []), {after, size: 4, left: 0, last: true}],
          sweep_call: {seat: 1, values: [3, 5, 9, 12], after: 'set_aside'}}}); }"""
    )
    for sel in ("sweep-call", "new-packet", "last-packet"):
        page.wait_for_selector(f"[data-testid={sel}]")
    for lang in LANGS:
        set_language(page, lang)
        problems = page.evaluate(OVERFLOW_JS, ".felt-top")
        assert problems == [], f"{lang}: {problems}"
        stock = page.locator("[data-testid=stock]").bounding_box()
        aside = page.locator(".set-aside").bounding_box()
        assert (
            abs((aside["y"] + aside["height"] / 2) - (stock["y"] + stock["height"] / 2))
            < stock["height"]
        ), f"{lang}: the set-aside left the stock's row"
        if lang == "sv":
            page.screenshot(path=str(screenshots / "phone-felt-every-notice-sv.png"))
