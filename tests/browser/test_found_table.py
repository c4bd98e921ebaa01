"""Issue 33, "everything else found", at the table, in Chromium: the chat's "too fast"
notice clears itself, the spectator link opens the table as a spectator, reactions are
pictures that need no emoji font, numbers and default names follow the language, and
the room history words a match with no finished deal as such.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot
from tests.browser.test_social import FLOOD_JS, api_room, seat_page
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

EMOTES = ["👍", "👏", "😮", "😂", "😅", "🙏"]


def playing_room(server: Any) -> dict[str, Any]:
    """A two-seat room of Ann against a bot: full at once, so its match is being played."""
    return api_room(server, bots=1, bot_level="greedy", bot_delay=0)


def test_the_too_fast_notice_clears_itself(new_page, server) -> None:
    room = playing_room(server)
    ann = seat_page(new_page, room, "Ann")
    ann.wait_for_selector("[data-testid=chat]")
    said = ann.evaluate(FLOOD_JS, 20)
    assert isinstance(said, int) and said < 20, f"a flood of 20 lines: {said}"
    ann.wait_for_selector("[data-testid=chat-error]")
    assert "too fast" in ann.locator("[data-testid=chat-error]").inner_text()
    # Nobody types again: the notice goes by itself after a few seconds (not minutes).
    ann.wait_for_selector("[data-testid=chat-error]", state="detached", timeout=WAIT_MS)
    assert ann.evaluate("window.__krypkasino.store.get().chatError") is not None, (
        "the refusal is still known; only its notice is gone"
    )
    assert not ann.errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_spectator_link_opens_the_table_as_a_spectator(new_page, server, screenshots, size):
    room = playing_room(server)
    rid = room["room_id"]
    rail = new_page(PHONE if size == "phone" else DESKTOP)
    rail.goto(f"/r/{rid}?watch=1")
    rail.wait_for_selector("[data-testid=watching]")
    assert rail.locator("[data-testid=join-form]").count() == 0
    assert rail.locator("[data-testid=seat]").count() >= 1
    shoot(rail, screenshots, f"{size}-spectator-link")
    # The invite link of a room with no free seat is a way to watch it, too.
    other = new_page(PHONE if size == "phone" else DESKTOP)
    other.goto(f"/r/{rid}")
    other.wait_for_selector("[data-testid=watching]")
    assert other.url.endswith(f"/r/{rid}?watch=1")
    assert other.locator("[data-testid=join-form]").count() == 0
    for p in (rail, other):
        assert not p.errors


def test_a_room_with_a_free_seat_still_offers_it(new_page, server) -> None:
    room = api_room(server, bots=0)
    guest = new_page(DESKTOP)
    guest.goto(f"/r/{room['room_id']}")
    guest.wait_for_selector("[data-testid=join-form]")
    assert "?watch" not in guest.url


REACTION_IMAGES_JS = """async (sel) => Promise.all([...document.querySelectorAll(sel)].map(
    async (img) => ({
        emote: img.dataset.emote,
        // waits for the picture itself: on a busy machine it may still be on its way
        loaded: await img.decode().then(() => img.naturalWidth > 0, () => false),
        src: img.getAttribute('src'), w: img.getBoundingClientRect().width })))"""
"""Each picture once it has loaded (``decode()`` resolves) or failed to (it rejects):
a picture checked as soon as its element appears may not have arrived yet."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_reactions_are_pictures(new_page, server, screenshots, size) -> None:
    room = api_room(server)
    rid = room["room_id"]
    bo_seat = fetch.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Bo"}).json()
    ann = seat_page(new_page, room, "Ann", PHONE if size == "phone" else DESKTOP)
    bo = seat_page(new_page, {**bo_seat, "room_id": rid}, "Bo")
    ann.wait_for_selector("[data-testid=react] img.emote-img")
    buttons = ann.evaluate(REACTION_IMAGES_JS, "[data-testid=react] img.emote-img")
    assert [b["emote"] for b in buttons] == EMOTES
    assert all(b["loaded"] and b["src"].endswith(".svg") and b["w"] >= 12 for b in buttons), buttons
    assert len({b["src"] for b in buttons}) == len(EMOTES), "a picture of its own for each"
    labels = ann.locator("[data-testid=react]").evaluate_all("els => els.map(e => e.ariaLabel)")
    assert all(label.startswith("React") for label in labels), labels
    # Bo's reaction shows over his seat on Ann's screen as the same picture.
    bo.wait_for_selector("[data-testid=react] img.emote-img")
    bo.locator("[data-testid=react]").nth(3).click()
    ann.wait_for_selector("[data-testid=reaction][data-seat='1'] img.emote-img")
    shown = ann.evaluate(REACTION_IMAGES_JS, "[data-testid=reaction] img.emote-img")
    assert shown and shown[0]["emote"] == "😂" and shown[0]["loaded"], shown
    shoot(ann, screenshots, f"{size}-reaction-picture")
    for p in (ann, bo):
        assert not p.errors


NUM_JS = """async ([lang, n, digits]) => {
    const url = new URL('i18n.js', document.querySelector('script[src$="main.js"]').src);
    const i18n = await import(url.href);  // the very module the page runs
    await i18n.setLanguage(lang);
    return [i18n.num(n, digits), i18n.signed(-n)];
}"""


@pytest.mark.parametrize(
    ("lang", "mean", "minus"),
    [
        ("en", "34.3", "\u22125"),
        ("sv", "34,3", "\u22125"),
        ("nb", "34,3", "\u22125"),
        ("es", "34,3", "\u22125"),
        ("fr", "34,3", "\u22125"),
        ("pt", "34,3", "\u22125"),
    ],
)
def test_numbers_are_written_as_the_language_writes_them(new_page, lang, mean, minus) -> None:
    page = new_page(DESKTOP)
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    assert page.evaluate(NUM_JS, [lang, 34.25, 1]) == [
        mean,
        "\u221234,25" if lang != "en" else "\u221234.25",
    ]
    assert page.evaluate(NUM_JS, [lang, 5, 1]) == ["5", minus]
    assert page.evaluate(NUM_JS, [lang, -0.04, 1])[0] == "0", "no minus sign on a rounded zero"


def test_default_names_are_in_the_players_language(new_page, screenshots) -> None:
    page = new_page(PHONE, locale="sv-SE")
    page.goto("/")
    page.click("[data-testid=play-now]")
    page.wait_for_url("**/r/*")
    me = Player(page)
    view = me.wait_view()
    assert view["seats"][0]["name"] == "Spelare"
    page.wait_for_selector("[data-testid=seat][data-seat='1']")
    bot_seat = page.locator("[data-testid=seat][data-seat='1']").inner_text()
    assert "Dator 1" in bot_seat and "Bot 1" not in bot_seat
    shoot(page, screenshots, "phone-default-names-sv")
    assert not page.errors


def test_history_words_the_match_in_the_language(new_page, server, screenshots) -> None:
    page = new_page(DESKTOP, locale="sv-SE")
    page.add_init_script("localStorage.setItem('krypkasino.lang', 'sv')")
    create_room(page, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=3)
    rid = page.url.rsplit("/", 1)[1]
    me = Player(page)
    me.wait_view()
    # No deal finished: the history says so, never "Giv 0 av 3".
    page.goto(f"/r/{rid}/history")
    page.wait_for_selector("[data-testid=match-history]")
    text = page.locator("[data-testid=match-history]").inner_text()
    assert "Ingen giv i matchen är slut än." in text and " 0 av 3" not in text
    assert page.locator("[data-testid=deals-finished]").count() == 0
    # One deal played: how many of the three are done, and the mean in Swedish.
    page.goto(f"/r/{rid}")
    me.wait_view()
    me.play_until_summary(prefer_creep=True)
    page.goto(f"/r/{rid}/history")
    page.wait_for_selector("[data-testid=deals-finished]")
    assert "Färdiga givar: 1 av 3" in page.locator("[data-testid=deals-finished]").inner_text()
    matches = fetch.get(f"{server.url}/api/rooms/{rid}/matches").json()
    total = matches[0]["deals"][0]["totals"][0]
    mean = page.locator("[data-testid=figure-row][data-seat='0'] [data-k=mean]").inner_text()
    assert mean == (f"\u2212{-total}" if total < 0 else str(total))
    shoot(page, screenshots, "desktop-history-sv")
    assert not page.errors
