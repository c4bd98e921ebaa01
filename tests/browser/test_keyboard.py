"""Keys for every move (issue 33): a whole deal against a bot played with the keyboard only.

Once the room is open the test only presses keys (page.keyboard.press): a number
selects the n-th card of the hand, Enter plays it, the capture chooser's options are
numbered and a number plays one, `?` opens the shortcuts.  After every play, the
bot's and ours, the focus is back in the hand (or in the chooser while it is open)
without a single Tab.  The store is read only to know when to act and what to check.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot

pytestmark = pytest.mark.browser

LETTERS = "abcdefghijklmnopqrstuvwxyz"

FOCUS_IN = """(where) => { const el = document.activeElement;
  return !!(el && el.closest && el.closest(`[data-testid=${where}]`)); }"""
ON_LEGAL = """() => { const el = document.activeElement;
  return !!(el && el.closest && el.closest('[data-testid=hand] li.legal')); }"""
FOCUSED_CARD = "() => document.activeElement && document.activeElement.getAttribute('data-card')"


def key_label(i: int) -> str:
    """The key that picks the i-th (0-based) card or option, as static/js/ui/keys.js says."""
    return str(i + 1) if i < 9 else "0" if i == 9 else LETTERS[i - 10]


def options(view: dict[str, Any], card: str) -> list[list[str]]:
    seen: list[list[str]] = []
    for m in view["legal"]:
        take = sorted(m.get("take") or [])
        if m["card"] == card and take not in seen:
            seen.append(take)
    return seen


def wait_focus_in(page: Any, where: str) -> None:
    page.wait_for_function(FOCUS_IN, arg=where)


def test_a_whole_deal_played_with_the_keyboard_only(new_page, screenshots):
    page = new_page()
    create_room(page, "Ann", players=2, bots=1, match_deals=10)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    # No click from here on.  The focus starts in the hand, on a playable card.
    wait_focus_in(page, "hand")
    assert page.evaluate("() => !!document.activeElement.closest('li.legal')")

    # `?` opens the shortcuts; Esc closes them and gives the focus back to the hand.
    page.keyboard.press("?")
    dialog = page.locator("[data-testid=shortcuts]")
    dialog.wait_for()
    assert dialog.locator("kbd").count() >= 8
    wait_focus_in(page, "shortcuts")
    page.keyboard.press("1")  # no card is selected under a dialog
    wait_focus_in(page, "shortcuts")
    shoot(page, screenshots, "desktop-keyboard-shortcuts")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    wait_focus_in(page, "hand")

    # Typing in the chat is the chat's: digits go into the input, no card is picked.
    chat = page.locator("[data-testid=chat-input]")
    chat.focus()
    page.keyboard.type("12")
    assert chat.input_value() == "12"
    wait_focus_in(page, "chat")
    page.keyboard.press("Control+a")
    page.keyboard.press("Backspace")
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("ArrowRight")  # from nowhere, an arrow comes back to the hand
    wait_focus_in(page, "hand")

    counts = {"plays": 0, "chosen": 0, "single": 0}
    deals = 0
    # Whole deals, until the chooser and a single legal move have both come up.  The
    # deals are random: about one in four gives this seat no choice among captures
    # (test_play.py), so nine deals make a miss negligible; the first one usually has both.
    while deals < 1 or not (counts["chosen"] and counts["single"]):
        assert deals < 9, f"no capture chooser or no single move in {deals} deals: {counts}"
        before = counts["plays"]
        play_deal(page, me, counts, screenshots)
        deals += 1
        assert counts["plays"] - before >= 10
        assert not page.errors
        # The summary's button has the focus: Enter goes on, the focus is back in the hand.
        summary = page.locator("[data-testid=deal-summary]")
        wait_focus_in(page, "deal-summary")
        page.keyboard.press("Enter")
        summary.wait_for(state="detached")
        wait_focus_in(page, "hand")
    assert not page.errors


def play_deal(page: Any, me: Player, counts: dict[str, int], screenshots: Any) -> None:
    """Play this seat's every turn of one deal with keys, until its summary shows."""
    while me.wait_ready() != "summary":
        state = me.state()
        view, seq = state["view"], state["seq"]
        # After the bot's play, ours, or a new packet: on a playable card of the hand.
        page.wait_for_function(ON_LEGAL)
        hand = view["hand"]
        distinct = {(m["card"], tuple(sorted(m.get("take") or []))) for m in view["legal"]}
        counts["plays"] += 1
        if len(distinct) == 1:
            # One legal move: one key plays it (the focus is on its card already).
            ((card, _take),) = distinct
            assert page.evaluate(FOCUSED_CARD) == card
            page.keyboard.press("Enter")
            me.wait_seq_after(seq)
            counts["single"] += 1
            continue
        cards = list(dict.fromkeys(m["card"] for m in view["legal"]))
        # A card with several captures when there is one, to go through the chooser.
        several = [c for c in cards if len(options(view, c)) > 1]
        card = several[0] if several else cards[-1]
        index = hand.index(card)
        page.keyboard.press(key_label(index))
        assert page.evaluate(FOCUSED_CARD) == card
        badge = page.locator("[data-testid=hand] li").nth(index).locator("[data-testid=key-badge]")
        assert badge.is_visible() and badge.inner_text().lower() == key_label(index)
        page.keyboard.press("Enter")
        opts = options(view, card)
        if len(opts) > 1:
            chooser = page.locator("[data-testid=chooser]")
            chooser.wait_for()
            wait_focus_in(page, "chooser")
            buttons = chooser.locator("[data-testid=option]")
            n = buttons.count()
            assert n == len(opts)
            labels = [
                buttons.nth(i).locator("[data-testid=key-badge]").inner_text() for i in range(n)
            ]
            assert labels == [key_label(i).upper() for i in range(n)]
            if not counts["chosen"]:
                shoot(page, screenshots, "desktop-keyboard-chooser")
                # Arrows walk the options; Esc closes the chooser onto its card; Enter reopens it.
                page.keyboard.press("ArrowDown")
                assert page.evaluate("() => document.activeElement.dataset.take") == (
                    buttons.nth(1).get_attribute("data-take")
                )
                page.keyboard.press("Escape")
                chooser.wait_for(state="detached")
                assert page.evaluate(FOCUSED_CARD) == card
                page.keyboard.press("Enter")
                chooser.wait_for()
                wait_focus_in(page, "chooser")
            pick = n - 1  # the last option: the number decides, not the focus (on the first)
            take = sorted((buttons.nth(pick).get_attribute("data-take") or "").split())
            page.keyboard.press(key_label(pick))
            me.wait_seq_after(seq)
            chooser.wait_for(state="detached")
            if view["stock_count"] or len(hand) > 1:  # (a deal's last play resets the log)
                mine = me.view["log"][len(view["log"])]
                assert mine["card"] == card and sorted(mine.get("taken") or []) == take
            counts["chosen"] += 1
        else:
            me.wait_seq_after(seq)
        if counts["plays"] == 3:
            wait_focus_in(page, "hand")
            shoot(page, screenshots, "desktop-keyboard-hand")


BADGES_JS = """() => [...document.querySelectorAll('[data-testid=hand] li')].map((li) => {
    const strip = li.querySelector('button.card-btn').getBoundingClientRect();
    const badge = li.querySelector('[data-testid=key-badge]').getBoundingClientRect();
    return {text: li.querySelector('[data-testid=key-badge]').textContent, mid: badge.left + badge.width / 2,
            left: strip.left, right: strip.right, shown: badge.width > 0, inside: badge.left >= 0 && badge.right <= innerWidth};
})"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_past_ten_cards_letters_pick_and_every_badge_sits_on_its_own_card(
    new_page, screenshots, size
):
    from tests.browser.test_one_screen import CARDS, LAPTOP, NARROW, give_hand, seated

    page, _me = seated(new_page, NARROW if size == "phone" else LAPTOP)
    give_hand(page, CARDS)  # 13 cards, overlapped
    for key, card in [("0", "10H"), ("c", "KS"), ("b", "QD"), ("1", "AS"), ("a", "JC")]:
        page.keyboard.press(key)
        assert page.evaluate(FOCUSED_CARD) == card, key
    badges = page.evaluate(BADGES_JS)
    assert [b["text"] for b in badges] == [key_label(i).upper() for i in range(13)]
    for b in badges:
        assert b["shown"] and b["inside"], b
        assert b["left"] <= b["mid"] <= b["right"], f"badge {b['text']} off its card's strip: {b}"
    shoot(page, screenshots, f"{size}-keyboard-hand-13")
    # A pointer press hides the badges again.
    page.mouse.click(5, 5)
    assert not page.locator("[data-testid=key-badge]").first.is_visible()
    assert not page.errors
