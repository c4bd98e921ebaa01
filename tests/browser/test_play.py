"""The browser client against a real server: whole deals played by clicks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import Player, create_room, play_together, press

pytestmark = pytest.mark.browser


def _summary_checks(page: Any, total_points: int = 42) -> None:
    """The summary shows a breakdown whose card points add up to the pack's."""
    summary = page.locator("[data-testid=deal-summary]")
    assert summary.is_visible()
    assert summary.locator("[data-testid=card-sum]").inner_text() == str(total_points)
    check = summary.locator("[data-testid=points-check]")
    assert "ok" in (check.get_attribute("class") or "")


def test_a_deal_against_a_bot_played_by_clicks_ends_in_the_score_summary(new_page):
    page = new_page()
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    view = me.wait_view()
    assert view["you"] == 0 and view["status"] == "playing"
    # The very first play goes by keyboard: focus a legal card, press Enter.
    me.wait_ready()
    seq = me.state()["seq"]
    first = page.locator(".hand li.legal button").first
    first.focus()
    page.keyboard.press("Enter")
    if page.locator("[data-testid=chooser]").count():
        page.keyboard.press("Enter")  # the first option has the focus
    me.wait_seq_after(seq)
    plays = 1 + me.play_until_summary()
    assert plays >= 20  # a double-pack deal for two: 50 cards per player
    _summary_checks(page)
    view = me.view
    prev = view["previous_deal"]
    assert prev["deal_no"] == 1
    assert sum(s["card_points"] for s in prev["scores"]) == 42
    assert sum(s["total"] for s in prev["scores"]) == 42
    # The rows shown are the server's numbers.
    rows = page.locator("[data-testid=breakdown] tbody tr")
    assert rows.count() == 2
    for seat in range(2):
        cells = rows.nth(seat).locator("td")
        assert cells.first.inner_text() == str(prev["scores"][seat]["card_points"])
        total = str(prev["scores"][seat]["total"]).replace("-", "\u2212")  # a true minus sign
        assert cells.last.inner_text() == total
    assert not page.errors


def test_a_short_match_ends_with_winners_and_a_rematch(new_page):
    page = new_page()
    create_room(page, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=1)
    me = Player(page)
    me.wait_view()
    me.play_until_summary()
    page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")
    view = me.view
    winners = page.locator("[data-testid=winners]")
    assert winners.is_visible()
    names = [view["seats"][s]["name"] for s in view["winners"]]
    for name in names:
        text = winners.inner_text()
        assert name in text or (name == "Ann" and "you" in text.lower())  # "You win the match!"
    _summary_checks(page, total_points=21)
    page.click("[data-testid=rematch]")
    page.wait_for_function(
        "() => { const v = window.__krypkasino.store.get().view;"
        " return v.status === 'playing' && v.match_no === 2; }"
    )
    assert not page.locator("[data-testid=deal-summary]").count()
    assert not page.errors


def test_two_players_and_a_spectator_play_a_deal_and_the_spectator_never_sees_a_hand(new_page):
    ann = new_page()
    create_room(ann, "Ann", players=2, bots=0, rules=("single_pack",))
    ann.wait_for_selector("[data-testid=waiting-room]")
    invite = ann.locator("[data-testid=invite-link]").input_value()
    spectate = ann.locator("[data-testid=spectate-link]").input_value()
    code = ann.locator("[data-testid=room-code]").inner_text()
    assert invite.endswith("/r/" + invite.rsplit("/", 1)[1]) and spectate == invite + "?watch=1"

    # The spectator arrives first and records every frame the server sends it.
    watcher = new_page(PHONE)
    frames: list[Any] = []
    watcher.on(
        "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload))
    )
    watcher.goto(spectate)
    watcher.wait_for_selector("[data-testid=waiting-room]")

    # Bo joins with the room code from the lobby.
    bo = new_page(PHONE)
    bo.goto("/")
    bo.fill("[data-testid=join-code]", code.lower())
    press(bo, "[data-testid=join-by-code]")
    bo.wait_for_selector("[data-testid=join-form]")
    bo.fill("#join-name", "Bo")
    bo.click("[data-testid=take-seat]")

    players = [Player(ann), Player(bo)]
    for p in players:
        p.page.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'playing'")
    assert players[1].view["you"] == 1
    watcher.wait_for_selector("[data-testid=watching]")
    plays = play_together(players)
    assert plays == 48  # a single pack: 52 cards, 4 dealt to the table

    for page in (ann, bo, watcher):
        page.wait_for_selector("[data-testid=deal-summary]")
        _summary_checks(page, total_points=21)
    spectator = Player(watcher).view
    assert spectator["you"] is None
    assert spectator["previous_deal"]["deal_no"] == 1

    # Never a hand card: no snapshot with a hand, no patch touching /hand,
    # no legal moves, and no hand drawn on the spectator's screen.
    messages = [json.loads(f) for f in frames if isinstance(f, str)]
    assert any(m["type"] == "snapshot" for m in messages)
    patches = 0
    for m in messages:
        if m["type"] == "snapshot":
            assert m["view"]["hand"] == [] and m["view"]["legal"] == []
        elif m["type"] == "patch":
            patches += 1
            for op in m["ops"]:
                assert not op["path"].startswith("/hand/") and not (
                    op["path"] == "/hand" and op.get("value")
                ), op
                assert not (op["path"].startswith("/legal") and op.get("value")), op
    assert patches >= 48
    assert watcher.locator("[data-testid=hand]").count() == 0
    for page in (ann, bo, watcher):
        assert not page.errors


def test_a_capture_chosen_among_several_is_the_one_the_server_takes(new_page):
    page = new_page()
    # About one deal in four gives this seat no such choice (measured with the
    # engine), so three deals missed one in about seventy runs: ten deals make
    # a miss negligible, and the first deal usually has one.
    create_room(page, "Ann", players=2, bots=1, match_deals=10)
    me = Player(page)
    me.wait_view()
    for _ in range(1000):
        state = me.wait_ready()
        if state == "summary":
            if me.view["status"] == "finished":
                break
            page.click("[data-testid=close-summary]")
            continue
        view = me.view
        cards = {m["card"] for m in view["legal"]}
        multi = [c for c in sorted(cards) if len(me.options(view, c)) > 1]
        last_cards = view["stock_count"] == 0 and len(view["hand"]) <= 1
        if not multi or last_cards:  # (a deal's very last play would reset the log)
            me.play_turn(prefer_creep=True)
            continue
        card = multi[0]
        options = me.options(view, card)
        seq = me.state()["seq"]
        me.click_card(card)
        page.wait_for_selector("[data-testid=chooser]")
        shown = page.locator("[data-testid=option]")
        assert shown.count() == len(options)
        # Pick the last option shown: first narrow it down by clicking a table
        # card that only it takes (when there is one), then click it.
        raw = shown.last.get_attribute("data-take") or ""
        wanted = sorted(raw.split())
        assert wanted in options
        others = [o for o in options if o != wanted]
        only_mine = [c for c in wanted if all(c not in o for o in others)]
        if only_mine:
            page.locator(f'.table-cards button[data-card="{only_mine[0]}"]').first.click()
            assert page.locator("[data-testid=option]").count() == 1
        page.locator(f'[data-testid=option][data-take="{raw}"]').click()
        me.wait_seq_after(seq)
        log = me.view["log"]
        mine = [m for m in log if m["seat"] == view["you"]]
        assert mine[-1]["card"] == card
        assert sorted(mine[-1]["taken"]) == wanted
        assert not page.errors
        return
    pytest.fail("no position with several legal captures came up in ten deals")
