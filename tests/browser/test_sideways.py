"""A phone held sideways: the table is one screen there too.

Held sideways a phone is 320-430 px high. Before, the opponents' row, the felt (at least
260 px) and the buttons pushed the hand some 720 px down, two screens. Now the
opponents stand in a column at the left, the felt and the hand share the rest, and
the room under the header scrolls inside itself to the scores, the log and the chat.
Every test here checks what a player sees without scrolling: the whole hand, each card
keeping a strip a finger can tap, the felt and every seat, nothing scrolling sideways.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot
from tests.browser.test_one_screen import (
    CARDS,
    CARDS_INSIDE_JS,
    HAND_JS,
    MULTI,
    NARROW,
    OVERFLOW_JS,
    check_hand,
    give_hand,
    intersects,
)
from tests.browser.test_table_fit import LANGS, set_language
from tests.browser.test_tutorial import TUT, learner_moves
from tests.browser.waits import wait_still

pytestmark = pytest.mark.browser

SIDEWAYS = {
    "640x360": {"width": 640, "height": 360},
    "740x360": {"width": 740, "height": 360},
    "844x390": {"width": 844, "height": 390},
    "915x412": {"width": 915, "height": 412},
}

# What lies outside the first screen: the parts of the table a player needs at a
# glance, measured where they are drawn.
UNSEEN_JS = """() => {
    const out = [];
    const box = (sel) => [...document.querySelectorAll(sel)];
    for (const sel of ['.app-header', '.felt', '[data-testid=hand]', '.status-line', '.me-head',
                       '[data-testid=last-move]', '[data-testid=stock]']) {
        for (const el of box(sel)) {
            const r = el.getBoundingClientRect();
            if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5)
                out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`);
        }
    }
    for (const li of box('[data-testid=hand] li')) {
        const r = li.querySelector('.card-svg').getBoundingClientRect();
        if (r.bottom > innerHeight + 0.5) out.push(`hand card ending at ${Math.round(r.bottom)}`);
    }
    // Each opponent: within the screen, or within its column when that scrolls.
    const column = document.querySelector('.opponents');
    const c = column.getBoundingClientRect();
    if (c.bottom > innerHeight + 0.5) out.push(`the opponents' column ends at ${Math.round(c.bottom)}`);
    for (const seat of box('[data-testid=seat]')) {
        const r = seat.getBoundingClientRect();
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5) out.push(`seat ${seat.dataset.seat} sticks out`);
    }
    if (window.scrollY !== 0) out.push(`the page scrolled by ${window.scrollY}`);
    return out;
}"""


FIT_JS = f"""(sel) => [({UNSEEN_JS})(), ({OVERFLOW_JS})(sel), ({HAND_JS})()]"""
"""UNSEEN_JS, OVERFLOW_JS on ``sel`` and HAND_JS, measured in one call (one round trip)."""


def check_fit(page: Any, width: int, label: str) -> None:
    """Nothing a player needs off the first screen, nothing sideways, the whole hand."""
    unseen, overflow, hand = page.evaluate(FIT_JS, ".page.game")
    assert unseen == [], label
    assert overflow == [], label
    check_hand(hand, width, label)


def sideways_room(new_page: Any, viewport: dict[str, int], players: int) -> tuple[Any, Player]:
    page = new_page(viewport)
    create_room(page, "Ann", players=players, bots=players - 1)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    wait_still(page)
    return page, me


@pytest.mark.parametrize("size", ["640x360", "844x390"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_table_of_2_to_6_is_one_screen_on_a_phone_held_sideways(
    new_page, screenshots, size, players
) -> None:
    viewport = SIDEWAYS[size]
    page, me = sideways_room(new_page, viewport, players)
    check_fit(page, viewport["width"], f"{size}, {players} players")
    # The seats stand beside the felt, not above it.
    seats = page.locator("[data-testid=seat]").first.bounding_box()
    felt = page.locator(".felt").bounding_box()
    assert seats["x"] + seats["width"] <= felt["x"], (seats, felt)
    assert seats["y"] < felt["y"] + felt["height"]
    # A few plays on: still one screen (the log grows, the table changes).
    for _ in range(2):
        me.play_turn(prefer_creep=True)
        me.wait_ready()
        wait_still(page)
        assert page.evaluate(UNSEEN_JS) == []
    shoot(page, screenshots, f"sideways-{size}-{players}p")
    assert not page.errors


def test_every_language_and_a_forced_sweep_fit_a_phone_held_sideways(new_page, screenshots) -> None:
    """The longest words the turn's line gets: "forced sweep" in six languages, on the
    narrowest sideways phone, with six players' seats in the column."""
    viewport = SIDEWAYS["640x360"]
    page, _ = sideways_room(new_page, viewport, 6)
    page.evaluate(
        """() => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, to_move: v.you, table: ['3H'], hand: ['3C', '3S', '9D', '10H'],
            legal: [{card: '3C', take: ['3H'], kind: 'sweep'}, {card: '3S', take: ['3H'], kind: 'sweep'}]}}); }"""
    )
    page.wait_for_selector(".forced")
    for lang in LANGS:
        set_language(page, lang)
        check_fit(page, viewport["width"], lang)
    shoot(page, screenshots, "sideways-forced-sweep-pt")
    assert not page.errors


def test_hands_of_every_real_size_lie_in_one_row_on_a_phone_held_sideways(new_page) -> None:
    """Two to six cards (R2.2's largest hand is six): side by side, each whole."""
    viewport = SIDEWAYS["640x360"]
    page, _ = sideways_room(new_page, viewport, 2)
    for n in range(2, 7):
        cards = give_hand(page, CARDS[:n])
        check_hand(cards, viewport["width"], f"{n} cards")
        assert len({c["row"] for c in cards}) == 1, n
        assert all(c["exposed"] == pytest.approx(c["right"] - c["left"]) for c in cards), n
        assert page.evaluate(UNSEEN_JS) == [], n
    assert not page.errors


def test_the_scores_log_and_chat_are_reached_by_scrolling_the_room(new_page, screenshots) -> None:
    """Below the table, inside the room: the header stays, the page itself does not move."""
    viewport = SIDEWAYS["740x360"]
    page, _ = sideways_room(new_page, viewport, 4)
    assert page.locator("[data-testid=scores]").bounding_box()["y"] >= viewport["height"]
    page.locator(".chat-form input").first.scroll_into_view_if_needed()
    chat = page.locator(".chat-form").bounding_box()
    assert chat["y"] >= 0 and chat["y"] + chat["height"] <= viewport["height"], chat
    room = page.evaluate(
        """() => ({scrolled: document.querySelector('main.game-grid').scrollTop,
                   header: document.querySelector('.app-header').getBoundingClientRect().top,
                   page: window.scrollY})"""
    )
    assert room["scrolled"] > 0 and room["header"] == 0 and room["page"] == 0, room
    shoot(page, screenshots, "sideways-chat")
    assert not page.errors


def test_the_capture_chooser_opens_over_the_seats_on_a_phone_held_sideways(
    new_page, screenshots
) -> None:
    viewport = SIDEWAYS["740x360"]
    page, _ = sideways_room(new_page, viewport, 2)
    page.evaluate(
        """(m) => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, ...m, to_move: v.you, set_aside_spades: [], set_aside_other: []}}); }""",
        MULTI,
    )
    page.wait_for_selector('[data-testid=hand] li.legal button[data-card="5H"]')
    page.click('[data-testid=hand] li.legal button[data-card="5H"]')
    page.wait_for_selector("[data-testid=chooser]")
    chooser = page.locator("[data-testid=chooser]").bounding_box()
    assert chooser["y"] >= 0 and chooser["y"] + chooser["height"] <= viewport["height"], chooser
    assert chooser["x"] >= 0 and chooser["x"] + chooser["width"] <= viewport["width"], chooser
    # It lies over the seats' column: the table's cards (tapped to narrow the choice)
    # and the hand's stay in sight.
    for face in page.locator("[data-testid=hand] .card-svg, [data-testid=table] li").all():
        assert not intersects(face.bounding_box(), chooser), face.bounding_box()
    # Every option can be brought into sight inside it and tapped (44 px high at least).
    for option in page.locator("[data-testid=option]").all():
        option.scroll_into_view_if_needed()
        box = option.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
        assert box["height"] >= 44 - 0.5
    assert page.evaluate(UNSEEN_JS) == []
    shoot(page, screenshots, "sideways-chooser")
    page.click("[data-testid=option] >> nth=2")
    page.wait_for_function("() => !document.querySelector('[data-testid=chooser]')")
    assert not page.errors


def test_turning_the_phone_refits_the_table_both_ways(new_page, screenshots) -> None:
    page, _ = sideways_room(new_page, NARROW, 4)
    sideways = SIDEWAYS["740x360"]
    for _ in range(2):
        page.set_viewport_size(sideways)
        # refitted: nothing a player needs off the first screen (the hand's box moves a
        # frame before its cards are refitted)
        page.wait_for_function(f"() => ({UNSEEN_JS})().length === 0")
        assert page.evaluate(UNSEEN_JS) == []
        check_hand(page.evaluate(HAND_JS), sideways["width"], "turned sideways")
        page.set_viewport_size(NARROW)
        page.wait_for_function(CARDS_INSIDE_JS, arg=NARROW["width"])
        assert page.evaluate(OVERFLOW_JS, ".page.game") == []
        check_hand(page.evaluate(HAND_JS), NARROW["width"], "turned upright")
        # Upright, the seats are a row above the felt again.
        seat = page.locator("[data-testid=seat]").first.bounding_box()
        assert seat["y"] + seat["height"] <= page.locator(".felt").bounding_box()["y"]
    assert not page.errors


# The tutorial's step beside the table: inside the screen, left of the felt, and what
# the step asks (its number, its text, a word on a refused card) inside the panel's
# visible part, unscrolled.
STEP_JS = """() => {
    const out = [];
    const panel = document.querySelector('[data-testid=tutorial-step]');
    const p = panel.getBoundingClientRect();
    const at = (r) => `${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`;
    if (p.top < -0.5 || p.bottom > innerHeight + 0.5 || p.left < -0.5 || p.right > innerWidth + 0.5)
        out.push(`the step's panel at ${at(p)}`);
    if (p.right > document.querySelector('.felt').getBoundingClientRect().left + 0.5)
        out.push('the step is not beside the felt');
    for (const sel of ['.step-no', '.step-text', '[data-testid=tutorial-note]']) {
        for (const el of panel.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            if (r.top < p.top - 0.5 || r.bottom > p.bottom + 0.5) out.push(`${sel} at ${at(r)}, the panel shows ${at(p)}`);
        }
    }
    return out;
}"""


def open_tutorial(new_page: Any, viewport: dict[str, int]) -> Any:
    page = new_page(viewport)
    page.goto("/tutorial")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=creep]")
    return page


TUTORIAL_SCREEN_JS = (
    f"""(sel) => [({UNSEEN_JS})(), ({STEP_JS})(), ({OVERFLOW_JS})(sel), ({HAND_JS})()]"""
)
"""UNSEEN_JS, STEP_JS, OVERFLOW_JS on ``sel`` and HAND_JS, measured in one call."""


def check_tutorial_screen(page: Any, viewport: dict[str, int], label: str) -> None:
    unseen, step, overflow, hand = page.evaluate(TUTORIAL_SCREEN_JS, ".page.game")
    assert unseen == [], label
    assert step == [], label
    assert overflow == [], label
    check_hand(hand, viewport["width"], label)


@pytest.mark.parametrize("size", ["640x360", "740x360", "844x390"])
def test_the_tutorial_held_sideways_shows_each_step_beside_its_table(
    new_page, screenshots, size
) -> None:
    """Each step's words, the table they speak of and the hand, on one screen; at the
    end the scores and the way to a real game are in the step's column."""
    viewport = SIDEWAYS[size]
    page = open_tutorial(new_page, viewport)
    for i, step in enumerate(learner_moves(TUT)):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        if i == 0:  # a refused card: the word of why is in sight too
            wrong = [c for c in TUT["frames"][0]["view"]["hand"] if c != step["card"]][0]
            page.locator(f'[data-testid=hand] button[data-card="{wrong}"]').click(force=True)
            page.wait_for_selector("[data-testid=tutorial-note]")
        check_tutorial_screen(page, viewport, f"{size}, step {step['step']}")
        if step["step"] == "forced":
            shoot(page, screenshots, f"sideways-{size}-tutorial-forced")
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    assert page.evaluate(UNSEEN_JS) == []
    assert page.evaluate(OVERFLOW_JS, ".page.game") == []
    play = page.locator("[data-testid=tutorial-real-game]")
    play.scroll_into_view_if_needed()
    box, panel = play.bounding_box(), page.locator("[data-testid=tutorial-step]").bounding_box()
    assert (
        panel["y"] - 0.5 <= box["y"]
        and box["y"] + box["height"] <= panel["y"] + panel["height"] + 0.5
    )
    assert page.evaluate("() => window.scrollY") == 0, "the step's column scrolled, not the page"
    shoot(page, screenshots, f"sideways-{size}-tutorial-done")
    assert not page.errors


def test_the_tutorial_held_sideways_fits_every_language(new_page) -> None:
    """The narrowest sideways phone, each step read in all six languages.  A step is
    read in them forth and the next one back, so it begins in the language the last
    one ended in (set again: the page settles as after a switch) and no switch back
    to English comes between them; the card is clicked in that language."""
    viewport = SIDEWAYS["640x360"]
    page = open_tutorial(new_page, viewport)
    for i, step in enumerate(learner_moves(TUT)):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        for lang in LANGS if i % 2 == 0 else LANGS[::-1]:
            set_language(page, lang)
            page.wait_for_selector("[data-testid=tutorial-step] .step-text")
            check_tutorial_screen(page, viewport, f"{lang}, step {step['step']}")
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    assert not page.errors
