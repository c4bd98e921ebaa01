"""Take back and hint in the browser (issue 33): one person against a bot gets both
buttons, a hint marks its card in hand, a take-back puts the hand back as it was, and
the deal's replay shows both marks; a room of two people shows neither button."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import PHONE
from tests.browser.driver import Player
from tests.browser.test_looks import shoot

pytestmark = pytest.mark.browser

HAND_JS = "() => [...document.querySelectorAll('[data-testid=hand] button[data-card]')].map(b => b.dataset.card)"


def api_room(server: Any, **body: Any) -> dict[str, Any]:
    r = fetch.post(f"{server.url}/api/rooms", json={"name": "Ann", **body}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def seat_page(new_page: Any, room: dict[str, Any], name: str, viewport: Any = None) -> Any:
    """A browser holding a seat (its token saved as the client saves it), at the table."""
    page = new_page(viewport)
    page.goto("/")
    page.evaluate(
        "([id, s]) => localStorage.setItem('krypkasino.seat.' + id, JSON.stringify(s))",
        [room["room_id"], {"token": room["token"], "seat": room["seat"], "name": name}],
    )
    page.goto(f"/r/{room['room_id']}")
    return page


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_one_person_against_a_bot_asks_a_hint_takes_back_and_sees_both_in_the_replay(
    new_page: Any, server: Any, screenshots: Any, size: str
) -> None:
    room = api_room(
        server,
        players=2,
        bots=1,
        bot_delay=0,
        deal_pause=60,
        takeback="always",
        rules={"single_pack": True, "match_deals": 1},
    )
    page = seat_page(new_page, room, "Ann", PHONE if size == "phone" else None)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    bar = page.locator("[data-testid=assist]")
    assert bar.is_visible()
    assert page.locator("[data-testid=assist-takeback]").is_disabled()  # nothing played yet

    page.click("[data-testid=assist-hint]")
    text = page.locator("[data-testid=assist-hint-text]")
    text.wait_for()
    hint = page.evaluate("() => window.__krypkasino.store.get().hint")
    marked = page.locator("[data-testid=hand] button[data-hinted=play]")
    marked.wait_for()
    assert marked.get_attribute("data-card") == hint["card"]
    assert page.locator("[data-testid=table] [data-hinted=take]").count() == len(hint["take"])
    assert page.locator("[data-testid=assist-hint]").is_disabled()  # it stands: no second ask
    shoot(page, screenshots, f"{size}-assist-hint")

    hand, plays = page.evaluate(HAND_JS), len(me.view["log"])
    me.play_turn()
    assert me.wait_ready() == "turn"  # the bot has answered: ``always`` undoes both
    assert not text.count()  # the hint was for the position before
    assert page.evaluate(HAND_JS) != hand
    page.click("[data-testid=assist-takeback]")
    page.wait_for_function(
        "(n) => { const v = window.__krypkasino.store.get().view;"
        " return v.log.length === n && v.to_move === v.you; }",
        arg=plays,
    )
    assert page.evaluate(HAND_JS) == hand  # the hand as it was before the play
    assert page.locator("[data-testid=assist-takeback]").is_disabled()
    shoot(page, screenshots, f"{size}-assist-taken-back")
    assert me.play_until_summary() > 0

    page.goto(f"/r/{room['room_id']}/replay/1/1")
    marks = page.locator("[data-testid=move-item] + .assist-marks [data-testid=assist-mark]")
    marks.first.wait_for()
    assert [m.get_attribute("data-kind") for m in marks.all()] == ["hint", "takeback"]
    assert "Hint asked" in marks.first.inner_text()
    assert "Taken back" in marks.nth(1).inner_text()
    step = page.locator("[data-testid=move-item]").nth(plays)
    step.click()
    here = page.locator("[data-testid=assist-mark-here]")
    assert here.count() == 2
    shoot(page, screenshots, f"{size}-assist-replay")
    assert not page.errors


def test_a_room_of_two_people_shows_no_take_back_and_no_hint(new_page: Any, server: Any) -> None:
    room = api_room(server, players=2, bots=0)
    r = fetch.post(f"{server.url}/api/rooms/{room['room_id']}/seats", json={"name": "Bo"})
    assert r.status_code == 201, r.text
    bo_seat = r.json()
    pages = [seat_page(new_page, room, "Ann"), seat_page(new_page, {**room, **bo_seat}, "Bo")]
    for page in pages:
        Player(page).wait_view()
        page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'playing'")
        page.locator("[data-testid=hand] button[data-card]").first.wait_for()
        assert page.locator("[data-testid=assist]").count() == 0
        assert page.evaluate("() => window.__krypkasino.store.get().view.assist") is None
        assert not page.errors


def test_the_create_form_offers_take_backs_only_against_bots_alone(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form]")
    page.fill("#create-name", "Ann")
    page.check("input[name=players][value='3']")
    choice = page.locator("[data-testid=create-takeback]")
    page.select_option("#create-bots", "1")  # a seat left for a friend: no take-backs
    assert choice.count() == 0
    page.select_option("#create-bots", "2")
    assert choice.input_value() == "always"  # the default (issue 47)
    choice.select_option("until_bot")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    view = Player(page).wait_view()
    assert view["options"]["takeback"] == "until_bot"
    assert view["assist"] == {"seat": 0, "takeback": False, "hint": view["to_move"] == 0}
    assert not page.errors


def test_play_now_lets_the_person_take_back_after_the_bot_has_answered(
    new_page: Any, screenshots: Any
) -> None:
    """Issue 47: "Play now" (nothing chosen) against a bot, a play taken back once the
    bot has answered: the bot's reply goes with it and the hand is as it was."""
    page = new_page(PHONE)
    page.goto("/")
    page.click("[data-testid=play-now]")
    page.wait_for_url("**/r/*")
    me = Player(page)
    assert me.wait_view()["options"]["takeback"] == "always"
    assert me.wait_ready() == "turn"  # (the bot may lead: its play stands)
    hand, plays = page.evaluate(HAND_JS), len(me.view["log"])
    me.play_turn()
    page.wait_for_function(  # the bot has answered: the person's turn again
        "(n) => { const v = window.__krypkasino.store.get().view;"
        " return v.log.length === n + 2 && v.to_move === v.you; }",
        arg=plays,
    )
    button = page.locator("[data-testid=assist-takeback]")
    button.wait_for()
    assert button.is_enabled()
    button.click()
    page.wait_for_function(
        "(n) => { const v = window.__krypkasino.store.get().view;"
        " return v.log.length === n && v.to_move === v.you; }",
        arg=plays,
    )
    assert page.evaluate(HAND_JS) == hand  # as it was before the play
    shoot(page, screenshots, "phone-play-now-taken-back")
    assert not page.errors
