"""The lobby's rule options are built from the server's catalogue (GET /api/rules)."""

from __future__ import annotations

import pytest

from app.engine.rules import OPTION_BY_NAME, RULE_OPTIONS
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
