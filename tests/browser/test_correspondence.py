"""Correspondence rooms in the browser (issue 32), against a real server: a room made
from the lobby counts its move in days and hours, the vacation button stops the
player's clock and starts it again, and "My games" lists the games waiting for the
player's move first, the soonest deadline first, while the page title counts them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, create_room, press
from tests.browser.test_looks import axe_problems, shoot

pytestmark = pytest.mark.browser

HOUR = 3_600_000
DAY = 24 * HOUR
MY_VACATION = """() => { const v = window.__krypkasino.store.get().view;
  return v.vacation && v.vacation[v.you]; }"""


def room_id(page: Any) -> str:
    return str(page.url.rsplit("/r/", 1)[1].split("?")[0])


def days_clock(page: Any) -> Any:
    return page.locator("[data-testid=status] [data-testid=days-clock]")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_correspondence_room_from_the_lobby_counts_the_move_in_days_and_hours(
    new_page, screenshots: Path, size: str
) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    create_room(page, "Ann", players=2, bots=1, days_per_move=2)
    me = Player(page)
    view = me.wait_view()
    assert view["options"]["pace"] == "correspondence"
    assert view["options"]["days_per_move"] == 2
    assert me.wait_ready() == "turn"
    # Two days for the move: the clock tells days and hours, never seconds.
    page.wait_for_selector("[data-testid=status] [data-testid=days-clock]")
    assert re.fullmatch(r"1 d 23 h left", days_clock(page).inner_text().strip())
    left = int(days_clock(page).get_attribute("data-left"))
    assert 47 * HOUR < left <= 2 * DAY
    assert page.locator("[data-testid=clock]").count() == 0, "no seconds clock"
    assert page.locator("[data-testid=pace-badge]").text_content() == "Correspondence"
    # The player's vacation: what is left, and the button to take it.
    assert page.locator("[data-testid=vacation-toggle]").inner_text() == "Take a vacation"
    assert page.locator("[data-testid=vacation-left]").inner_text().startswith("Vacation: ")
    assert page.evaluate(MY_VACATION)["left"] > 0
    shoot(page, screenshots, f"{size}-correspondence-room")
    assert axe_problems(page) == []
    # The move is made like any other, and the next one gets its two days afresh.
    me.play_turn(prefer_creep=True)
    assert me.wait_ready() in ("turn", "summary")
    assert not page.errors


def test_the_vacation_button_stops_the_players_clock_and_starts_it_again(
    new_page, screenshots: Path
) -> None:
    page = new_page(DESKTOP)
    create_room(page, "Ann", players=2, bots=1, days_per_move=1)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    allowance = page.evaluate(MY_VACATION)["left"]
    toggle = page.locator("[data-testid=vacation-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"

    toggle.click()
    page.click("[data-testid=vacation-confirm-yes]")  # it asks first (issue 47)
    page.wait_for_function(f"() => ({MY_VACATION})().since !== null")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=vacation-toggle]').textContent === 'End my vacation'"
    )
    assert toggle.get_attribute("aria-pressed") == "true"
    assert days_clock(page).inner_text().strip().startswith("On vacation")
    # While the vacation runs down (the page shows it), the move's clock stands still.
    standing = days_clock(page).get_attribute("data-left")
    vacation = page.locator("[data-testid=vacation-left]")
    assert vacation.inner_text().startswith("On vacation")
    page.wait_for_function(
        "(before) => Number(document.querySelector('[data-testid=vacation-left]').dataset.left)"
        " < before - 500",
        arg=int(vacation.get_attribute("data-left")),
    )
    assert days_clock(page).get_attribute("data-left") == standing
    shoot(page, screenshots, "desktop-correspondence-vacation")

    toggle.click()
    page.wait_for_function(f"() => ({MY_VACATION})().since === null")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=vacation-toggle]').textContent === 'Take a vacation'"
    )
    assert page.evaluate(MY_VACATION)["left"] < allowance, "the days taken are spent"
    assert days_clock(page).inner_text().strip().endswith("left")
    assert not page.errors


def _seat_bo(ann: Any, bo: Any) -> None:
    code = ann.locator("[data-testid=room-code]").inner_text()
    bo.goto("/")
    bo.fill("[data-testid=join-code]", code.lower())
    press(bo, "[data-testid=join-by-code]")
    bo.wait_for_selector("[data-testid=join-form]")
    bo.fill("#join-name", "Bo")
    bo.click("[data-testid=take-seat]")
    for page in (ann, bo):
        page.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'playing'")


def _games(page: Any) -> list[tuple[str, str]]:
    items = page.locator("[data-testid=my-game]")
    return [
        (items.nth(i).get_attribute("data-room"), items.nth(i).get_attribute("data-to-move"))
        for i in range(items.count())
    ]


def test_my_games_lists_my_moves_first_and_the_title_counts_them(
    new_page, screenshots: Path
) -> None:
    ann = new_page(DESKTOP)
    # C: Ann and Bo by correspondence, three days a move; the move is left with Bo.
    create_room(ann, "Ann", players=2, bots=0, days_per_move=3)
    ann.wait_for_selector("[data-testid=waiting-room]")
    bo = new_page(PHONE)
    _seat_bo(ann, bo)
    with_bo = room_id(ann)
    her, him = Player(ann), Player(bo)
    # Each sees the other's vacation left beside their seat.
    for page, other in ((ann, 1 - her.view["you"]), (bo, her.view["you"])):
        chip = page.locator(f"[data-testid=seat][data-seat='{other}'] [data-testid=vacation-chip]")
        assert chip.inner_text().startswith("Vacation: ") and chip.get_attribute("data-on") == "no"
    ann.wait_for_function(
        "() => { const v = window.__krypkasino.store.get().view; return v.to_move !== null; }"
    )
    if her.view["to_move"] == her.view["you"]:
        her.wait_ready()
        her.play_turn(prefer_creep=True)
    assert him.wait_ready() == "turn"
    # B and A: Ann against a bot, a day and a week a move: her move in both.
    against_bots = {}
    for days in (7, 1):
        create_room(ann, "Ann", players=2, bots=1, days_per_move=days)
        assert Player(ann).wait_ready() == "turn"
        against_bots[days] = room_id(ann)
    # D: a live room, the most recently made.
    create_room(ann, "Ann", players=2, bots=1)
    Player(ann).wait_view()
    live = room_id(ann)

    ann.goto("/")
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=my-game]').length === 4")
    assert _games(ann) == [
        (against_bots[1], "yes"),
        (against_bots[7], "yes"),
        (live, "no"),
        (with_bo, "no"),
    ]
    ann.wait_for_function("() => document.title === '(2) Krypkasino'")
    first = ann.locator("[data-testid=my-game]").first
    assert re.fullmatch(
        r"You have (23 h \d+ min|1 d 0 h) to move",
        first.locator("[data-testid=game-deadline]").inner_text().strip(),
    )
    assert first.locator("[data-testid=game-your-turn]").text_content() == "Your turn"
    theirs = ann.locator(
        f"[data-testid=my-game][data-room='{with_bo}'] [data-testid=game-deadline]"
    )
    assert re.fullmatch(r"Their move: 2 d 23 h left", theirs.inner_text().strip())
    assert (
        ann.locator(
            f"[data-testid=my-game][data-room='{live}'] [data-testid=game-deadline]"
        ).count()
        == 0
    )
    ann.locator("[data-testid=my-games]").scroll_into_view_if_needed()
    shoot(ann, screenshots, "desktop-my-games-your-turn")

    # Bo moves: Ann has three moves waiting, Bo's room (three days) before the week.
    him.play_turn(prefer_creep=True)
    ann.reload()
    ann.wait_for_function("() => document.title === '(3) Krypkasino'")
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=my-game]').length === 4")
    assert _games(ann) == [
        (against_bots[1], "yes"),
        (with_bo, "yes"),
        (against_bots[7], "yes"),
        (live, "no"),
    ]
    # The count is the lobby's: in a room the title is the room's again, which flags
    # her turn there (issue 47) and not the lobby's three.
    ann.locator(f"[data-testid=my-game][data-room='{with_bo}'] [data-testid=rejoin]").click()
    ann.wait_for_url(f"**/r/{with_bo}")
    ann.wait_for_function("() => document.title === '(1) Krypkasino'")
    for page in (ann, bo):
        assert not page.errors


STATE_SEQ = "() => window.__krypkasino.store.get().seq"


def test_taking_a_vacation_asks_first(new_page) -> None:
    """Issue 47: one tap on "Take a vacation" stopped the clock at once.  Now it asks;
    Cancel leaves the vacation off, and only "Start my vacation" sends it."""
    page = new_page(PHONE)
    create_room(page, "Ann", players=2, bots=1, days_per_move=1)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    seq = page.evaluate(STATE_SEQ)
    page.click("[data-testid=vacation-toggle]")
    ask = page.locator("[data-testid=vacation-confirm]")
    ask.wait_for()
    assert "Take a vacation now?" in ask.inner_text()
    assert page.evaluate("() => document.activeElement.dataset.testid") == "vacation-confirm-yes"
    page.click("[data-testid=vacation-confirm-no]")
    page.wait_for_selector("[data-testid=vacation-toggle]")
    assert page.evaluate(STATE_SEQ) == seq and page.evaluate(MY_VACATION)["since"] is None
    page.click("[data-testid=vacation-toggle]")
    page.click("[data-testid=vacation-confirm-yes]")
    page.wait_for_function(f"() => ({MY_VACATION})().since !== null")
    assert page.locator("[data-testid=vacation-confirm]").count() == 0
    assert not page.errors


def _tap_a_creep(page: Any, me: Player) -> str:
    view = me.view
    cards = [m["card"] for m in view["legal"] if not m["take"]] or [view["legal"][0]["card"]]
    page.locator(f'.hand li.legal button[data-card="{cards[0]}"]').first.tap()
    return str(cards[0])


def test_on_a_touch_screen_a_correspondence_play_waits_for_confirm(
    new_page, screenshots: Path
) -> None:
    """Issue 47: lichess offers to confirm a correspondence move on a touch screen.  Here
    it is on by default there: a tapped card is held (marked in the hand) with Confirm
    and Cancel, and nothing is sent until Confirm.  A live room, or the setting off,
    plays at once."""
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    create_room(page, "Ann", players=2, bots=1, days_per_move=2)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    seq = page.evaluate(STATE_SEQ)
    card = _tap_a_creep(page, me)
    held = page.locator("[data-testid=confirm-play]")
    held.wait_for()
    assert held.get_attribute("data-card") == card
    assert page.locator(f'.hand button[data-card="{card}"] ~ [data-testid=pending-card]').count()
    assert page.locator("[data-testid=pending-card]").get_attribute("data-held") == "yes"
    shoot(page, screenshots, "phone-correspondence-confirm-play")
    page.click("[data-testid=confirm-play-cancel]")
    held.wait_for(state="detached")
    assert page.evaluate(STATE_SEQ) == seq and card in me.view["hand"], "nothing was sent"

    card = _tap_a_creep(page, me)
    held.wait_for()
    assert page.evaluate(STATE_SEQ) == seq
    page.click("[data-testid=confirm-play-send]")
    me.wait_seq_after(seq)
    assert page.locator("[data-testid=confirm-play]").count() == 0

    # Off in the settings: a tap plays at once.
    page.evaluate(
        "() => localStorage.setItem('krypkasino.settings', JSON.stringify({confirm: 'never'}))"
    )
    page.reload()
    me.wait_view()
    assert me.wait_ready() == "turn"
    seq = page.evaluate(STATE_SEQ)
    _tap_a_creep(page, me)
    me.wait_seq_after(seq)
    assert page.locator("[data-testid=confirm-play]").count() == 0
    assert not page.errors


def test_a_live_room_on_a_touch_screen_plays_at_once(new_page) -> None:
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    seq = page.evaluate(STATE_SEQ)
    _tap_a_creep(page, me)
    me.wait_seq_after(seq)
    assert page.locator("[data-testid=confirm-play]").count() == 0
    assert not page.errors


def test_the_rooms_title_flags_whose_turn_it_is(new_page) -> None:
    """Issue 47: the lobby's title counts the games waiting for a move, the room's said
    nothing.  Now the title of the room of the player to move starts "(1)", and goes
    back once the move is made, while the other player's title gains it."""
    ann = new_page(DESKTOP)
    create_room(ann, "Ann", players=2, bots=0, days_per_move=3)
    ann.wait_for_selector("[data-testid=waiting-room]")
    bo = new_page(DESKTOP)
    _seat_bo(ann, bo)
    her, him = Player(ann), Player(bo)
    ann.wait_for_function("() => window.__krypkasino.store.get().view.to_move !== null")
    first, second = (her, him) if her.view["to_move"] == her.view["you"] else (him, her)
    first.page.wait_for_function("() => document.title === '(1) Krypkasino'")
    assert second.page.title() == "Krypkasino"
    assert first.wait_ready() == "turn"
    first.play_turn(prefer_creep=True)
    second.page.wait_for_function("() => document.title === '(1) Krypkasino'")
    first.page.wait_for_function("() => document.title === 'Krypkasino'")
    for page in (ann, bo):
        assert not page.errors
