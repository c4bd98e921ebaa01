"""The browser client when the server's database goes away for a moment.

A card clicked during the outage is not lost and not played twice: the page
says what is happening, sends the same play again by itself, and the card is
played once the database is back.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, Server
from tests.browser.driver import Player, create_room
from tests.browser.waits import WAIT_MS
from tests.server.harness import through
from tests.server.proxy import TcpProxy

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_a_card_clicked_while_the_database_is_away_is_played_when_it_returns(
    browser: Any, postgres_url: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy.engine import make_url

    proxy = TcpProxy("127.0.0.1", make_url(postgres_url).port or 5432).start()
    server = Server(tmp_path, database_url=through(postgres_url, proxy.port))
    ctx = browser.new_context(
        viewport=DESKTOP, base_url=server.url, locale="en-GB", reduced_motion="reduce"
    )
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        create_room(page, "Ann", players=2, bots=1)
        me = Player(page)
        me.wait_view()
        assert me.wait_ready() == "turn"
        state = me.state()
        seq, view = state["seq"], state["view"]
        # a card with a single legal move, so that no capture choice is asked
        card = next(c for c in (m["card"] for m in view["legal"]) if len(me.options(view, c)) == 1)
        proxy.stop()
        me.click_card(card)
        page.wait_for_function(
            "() => { const s = window.__krypkasino.store.get();"
            " return s.error && s.error.code === 'unavailable'; }"
        )
        notice = page.locator("[data-testid=error]")
        assert "database" in notice.inner_text()
        assert me.state()["pending"], "the play is still on its way"
        assert me.state()["seq"] == seq
        page.wait_for_timeout(2500)  # the page keeps trying meanwhile
        proxy.start()
        page.wait_for_function(
            "(seq) => window.__krypkasino.store.get().seq > seq", arg=seq, timeout=WAIT_MS
        )
        after = me.view
        mine = [e for e in after["log"] if e["seat"] == 0]
        assert [e["card"] for e in mine] == [card], "played once, by the page's own resend"
        assert not me.state()["pending"]
        assert not errors
    finally:
        ctx.close()
        server.stop()
        proxy.stop()
