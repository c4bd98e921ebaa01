"""The lobby's rule options, its bot levels and the opening deal it names are the
server's (GET /api/rules, GET /api/rules/deal: app/engine/facts.py), and the packets a
table shows are the view's (``packets``): served other facts, the client shows those."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.bots import LEVELS
from app.engine.facts import deal_facts, rules_catalogue
from app.engine.rules import OPTION_BY_NAME, RULE_OPTIONS, RuleSet
from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser


def test_the_form_offers_the_catalogues_options_for_the_chosen_player_count(new_page):
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form] input[name=picture_pairs]")
    for option in RULE_OPTIONS:
        box = page.locator(f".variants input[name={option.name}]")
        assert box.count() == (1 if option.type == "boolean" else 0), option.name
    # V1 partnership is for 4 players only, V2 for 2, V7 for 2 to 4 (the catalogue's counts)
    for players in (2, 3, 4, 5):
        page.check(f"input[name=players][value='{players}']")
        for name in ("partnership", "single_pack", "four_card_deal", "picture_pairs"):
            allowed = players in OPTION_BY_NAME[name].players
            assert page.locator(f".variants input[name={name}]").is_enabled() == allowed, (
                name,
                players,
            )
    limit = page.locator(".match-length input[type=number]").first
    assert limit.get_attribute("max") == str(OPTION_BY_NAME["match_deals"].maximum)
    assert not page.errors


def test_picture_pairs_and_the_tie_break_deal_reach_the_room(new_page):
    page = new_page()
    create_room(page, "Ann", players=2, bots=1, rules=("picture_pairs", "tie_break_deal"))
    view = Player(page).wait_view()
    assert view["rules"]["picture_pairs"] is True
    assert view["rules"]["tie_break_deal"] is True
    assert not page.errors


def opening_deal(page: Any) -> dict[str, str | None]:
    el = page.locator("[data-testid=opening-deal]")
    return {
        "hand": el.get_attribute("data-hand"),
        "table": el.get_attribute("data-table"),
        "text": el.inner_text(),
    }


def wait_opening(page: Any, hand: int, table: int) -> dict[str, str | None]:
    page.wait_for_selector(f"[data-testid=opening-deal][data-hand='{hand}'][data-table='{table}']")
    return opening_deal(page)


def test_the_bot_levels_are_the_servers(new_page) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create-bot-level option", state="attached")
    values = page.locator("#create-bot-level option").evaluate_all("os => os.map(o => o.value)")
    assert values == list(LEVELS)
    assert page.input_value("#create-bot-level") == "greedy"
    # Served other levels, the lobby offers those (and asks for one of them).
    other = {**rules_catalogue(), "bot_levels": ["strong", "random"]}
    page = new_page()
    page.route("**/api/rules", lambda route: route.fulfill(json=other))
    page.goto("/")
    page.wait_for_selector("#create-bot-level option", state="attached")
    values = page.locator("#create-bot-level option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["strong", "random"]
    assert page.input_value("#create-bot-level") == "strong"
    assert not page.errors


def test_the_lobby_names_the_opening_deal_the_server_deals(new_page) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form] input[name=four_card_deal]")
    for players in (2, 3, 4, 5, 6):  # R2.2, as the engine deals it
        page.check(f"input[name=players][value='{players}']")
        want = deal_facts(RuleSet(), players)
        shown = wait_opening(page, want["hand"], want["table"])
        assert f"then {len(want['packets'])} more packets" in str(shown["text"])
    page.check("input[name=players][value='3']")
    page.check("input[name=four_card_deal]")  # V7: 4 each and 4 on the table, 8 packets
    want = deal_facts(RuleSet(four_card_deal=True), 3)
    shown = wait_opening(page, 4, 4)
    assert (
        shown["text"]
        == f"4 cards each and 4 on the table, then {len(want['packets'])} more packets"
    )
    page.check("input[name=players][value='5']")  # V7 is not for 5: the standard deal
    wait_opening(page, 4, 4)
    page.check("input[name=players][value='6']")
    wait_opening(page, 5, 2)
    assert not page.errors


def test_a_different_deal_from_the_server_is_what_the_lobby_names(new_page) -> None:
    def deal(route: Any) -> None:
        body = json.loads(route.fetch().text())
        for d in body["deals"]:
            d.update(hand=d["hand"] + 10, packets=[1, 2])
        route.fulfill(json=body)

    page = new_page()
    page.route("**/api/rules/deal*", deal)
    page.goto("/")
    page.check("input[name=players][value='3']")
    shown = wait_opening(page, 15, 5)
    assert shown["text"] == "15 cards each and 5 on the table, then 2 more packets"
    assert not page.errors


def test_a_four_card_deal_table_shows_the_packets_the_server_dealt(new_page) -> None:
    """V7 for 3 players: 4 each, so the first packet (12 cards) comes after 12 plays; the
    table's log and felt show the view's ``packets`` as the server's engine made them."""
    page = new_page()
    create_room(page, "Ann", players=3, bots=2, rules=("four_card_deal",))
    me = Player(page)
    view = me.wait_view()
    assert view["rules"]["four_card_deal"] and view["packets"] == []
    assert sum(view["hand_counts"]) + len(view["log"]) == 12  # 4 each (bots play at once)
    while not me.view["packets"]:
        if me.wait_ready() == "summary":
            break
        me.play_turn()
    view = me.view
    first = view["packets"][0]
    assert first == {"after": 12, "size": 12, "left": 104 - 4 - 12 - 12, "last": False}
    page.wait_for_selector("[data-testid=log-packet]")
    entries = page.locator("[data-testid=log-packet]").all_text_contents()
    assert entries == [f"New packet: 12 cards dealt, {first['left']} left in the stock"]
    assert not page.errors
