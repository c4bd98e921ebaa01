"""Seats survive reloads and lost connections; texts follow the language."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser


def _hellos(page: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            if isinstance(payload, str):
                msg = json.loads(payload)
                if msg.get("type") == "hello":
                    sent.append(msg)

        ws.on("framesent", on_frame)

    page.on("websocket", on_ws)
    return sent


def test_a_reload_mid_deal_keeps_the_seat_and_resumes_from_last_seq(new_page):
    page = new_page(PHONE)
    hellos = _hellos(page)
    create_room(page, "Ann", players=3, bots=2)
    me = Player(page)
    me.wait_view()
    for _ in range(3):
        me.wait_ready()
        me.play_turn()
    me.wait_ready()
    before = me.state()
    token = page.evaluate(
        "() => JSON.parse(localStorage.getItem("
        "'krypkasino.seat.' + window.__krypkasino.store.get().view.room_id)).token"
    )
    assert token

    page.reload()
    page.wait_for_function("() => window.__krypkasino?.store.get().conn === 'live'")
    after = me.state()
    assert after["view"]["you"] == before["view"]["you"] == 0
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["table"] == before["view"]["table"]
    assert after["seq"] == before["seq"]
    assert hellos[-1] == {"type": "hello", "token": token, "last_seq": before["seq"]}
    # ...and play goes on from there.
    me.wait_ready()
    me.play_turn()
    assert not page.errors


def test_a_lost_connection_reconnects_by_itself_and_catches_up(new_page):
    page = new_page()
    hellos = _hellos(page)
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    seq = me.state()["seq"]
    # Drop the socket the hard way while a bot is about to answer our play.
    page.evaluate(
        "() => { const c = window.__krypkasino.connection; window.__lost = c.ws; c.ws.close(); }"
    )
    page.wait_for_function(
        "() => { const c = window.__krypkasino.connection;"
        " return c.ws && c.ws !== window.__lost && c.ws.readyState === 1"
        " && window.__krypkasino.store.get().conn === 'live'; }"
    )
    page.wait_for_timeout(100)
    assert len(hellos) == 2
    assert hellos[-1]["last_seq"] == seq
    me.wait_ready()
    me.play_turn()
    assert me.state()["seq"] > seq
    assert not page.errors


def test_an_invite_link_without_a_seat_asks_for_a_name_and_a_full_room_opens_to_watch(new_page):
    ann = new_page()
    create_room(ann, "Ann", players=2, bots=1)
    Player(ann).wait_view()
    url = ann.url
    other = new_page()
    other.goto(url)
    # No free seat: the link opens the table to watch, with no click on Watch (issue 33).
    other.wait_for_selector("[data-testid=watching]")
    assert other.url == url + "?watch=1"
    assert Player(other).view["you"] is None


def test_the_language_follows_the_browser_and_can_be_switched(new_page):
    page = new_page(locale="sv-SE")
    page.goto("/")
    page.wait_for_selector("text=Nytt rum >> visible=true")
    assert page.evaluate("document.documentElement.lang") == "sv"
    page.select_option(".lang-switch select", "fr")
    page.wait_for_selector("text=Nouvelle salle >> visible=true")
    page.reload()
    page.wait_for_selector("text=Nouvelle salle >> visible=true")
    for lang, title in [
        ("nb", "Nytt rom"),
        ("es", "Nueva sala"),
        ("pt", "Nova sala"),
        ("en", "New room"),
    ]:
        page.select_option(".lang-switch select", lang)
        page.wait_for_selector(f"text={title} >> visible=true")


def test_cards_have_spoken_names(new_page):
    page = new_page()
    create_room(page, "Ann", players=2, bots=1)
    Player(page).wait_ready()
    button = page.locator(".hand button").first
    card = button.get_attribute("data-card")
    names = dict(
        zip(
            ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
            [
                "ace",
                "two",
                "three",
                "four",
                "five",
                "six",
                "seven",
                "eight",
                "nine",
                "ten",
                "jack",
                "queen",
                "king",
            ],
        )
    )
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    name = f"{names[card[:-1]]} of {suits[card[-1]]}"
    # The accessible name (what a screen reader says) starts "ten of diamonds".
    assert page.get_by_role("button", name=name).count() >= 1


def test_an_unknown_room_says_so(new_page):
    page = new_page(PHONE)
    page.goto("/r/" + "0" * 32)
    page.wait_for_selector("text=Room not found")
    page.goto("/r/no-such-room")
    page.wait_for_selector("text=Room not found")
    page.click("text=Back to the lobby")
    page.wait_for_selector("[data-testid=play-now]")


def test_a_seat_token_the_server_does_not_know_falls_back_to_taking_a_seat(new_page):
    ann = new_page()
    create_room(ann, "Ann", players=3, bots=1)
    ann.wait_for_selector("[data-testid=waiting-room]")
    room_id = ann.url.rsplit("/", 1)[1]
    bo = new_page()
    bo.goto("/")
    bo.evaluate(
        "(id) => localStorage.setItem('krypkasino.seat.' + id,"
        " JSON.stringify({token: 'not-a-real-token', seat: 1, name: 'Bo'}))",
        room_id,
    )
    bo.goto(f"/r/{room_id}")
    bo.wait_for_selector("[data-testid=join-form]")
    assert bo.evaluate("(id) => localStorage.getItem('krypkasino.seat.' + id)", room_id) is None
