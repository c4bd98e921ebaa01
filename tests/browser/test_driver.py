"""The test driver's play against a short turn clock (tests/browser/driver.py).

Tests of the turn clock play whole deals in rooms whose clock may run out between
the driver's look at the hand and its click; a loaded CI run once waited a minute
for a card the clock had already played.  The driver's play against the clock must
pass such a turn over at once, never wait for a card that is gone, and still play
the deal out when the clock and the clicks race on every turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, Server
from tests.browser.driver import Player
from tests.browser.test_social import api_room, seat_page

pytestmark = pytest.mark.browser

CLOCK_PLAYED_FOR_ANN = """(plays) => {
  const v = window.__krypkasino.store.get().view;
  return v.log.length > plays && v.log.slice(plays).some((m) => m.seat === 0 && m.by === 'clock');
}"""


def test_a_turn_the_clock_played_first_is_passed_over_and_the_deal_still_ends(
    new_page: Any, server: Server
) -> None:
    room = api_room(
        server,
        bots=1,
        bot_delay=0,
        turn_clock=1,  # the shortest clock: it races the clicks on every turn
        deal_pause=600,
        rules={"single_pack": True, "match_deals": 1},
    )
    page = seat_page(new_page, room, "Ann", PHONE)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready() == "turn"
    chosen_from: dict[str, Any] = me._ready  # the position the driver would play from
    plays_before = len(chosen_from["view"]["log"])

    # The clock plays that turn before the driver acts on what it saw.
    page.wait_for_function(CLOCK_PLAYED_FOR_ANN, arg=plays_before)
    me._ready = chosen_from
    assert me.play_turn_against_the_clock() is None, "the turn had passed: nothing to play"
    state = me.state()
    assert state["pending"] is None and state["error"] is None, "nothing was sent"

    # The rest of the deal with the clock racing every click: it ends, and every play
    # of Ann's seat is either hers (unmarked) or marked as the clock's.
    mine = me.play_until_summary(clock=True)
    log = me.view["log"]
    ann = [m for m in log if m["seat"] == 0]
    assert me.view["between"] is not None or me.view["status"] == "finished"
    assert len(ann) == len(log) // 2, "single pack, two seats: half the plays are Ann's"
    assert {m.get("by") for m in ann} <= {None, "clock"}
    assert sum(m.get("by") is None for m in ann) == mine, "the driver counts its own plays"
    assert not page.errors
