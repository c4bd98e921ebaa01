"""A deal brought near its end over WebSockets, before a page takes the seat.

Most of a browser test's CPU is Chromium drawing the table again after every play on
every open page.  A test that checks what happens when a deal ends (a summary, a
countdown, a rematch, the deal of the day's results) needs a deal that ends, not every
play of it drawn: the seats' plays up to their last few cards go over WebSockets of
their own (``tests.server.harness.Client``: the view kept by applying patches, every
message checked against the protocol's schema), then the pages take the seats and
play the rest by clicks, so each page still sees the deal end as a player does.

Whole deals are played by clicks in tests/browser/test_play.py, test_rematch.py and
test_daily.py (the lobby's deal of the day), and against a turn clock in
test_driver.py and test_social.py.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from tests.server.harness import Client

from .conftest import Server

View = dict[str, Any]
T = TypeVar("T")

AHEAD_WAIT = 180.0
"""How long the seats may take to come to the stopping point (a failing test's bound:
the bots' plays and a loaded machine's pace are in it)."""


def near_the_end(hand: int) -> Callable[[View], bool]:
    """The stock is dealt out and the seat to move holds at most ``hand`` cards."""
    return lambda view: view["stock_count"] == 0 and len(view["hand"]) <= hand


class Ahead:
    """WebSockets of the seats these tokens hold, open until the block ends: the pages
    take the seats inside it, so that no seat is ever away (a turn clock's stand-in
    would play for an absent seat).  Its own event loop runs in a thread of its own
    (Playwright's sync API holds the test's thread)."""

    def __init__(self, server: Server, room_id: str, tokens: list[str]) -> None:
        self.ws_url = server.url.replace("http", "ws", 1)
        self.room_id = room_id
        self.tokens = tokens
        self.seats: list[Client] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def __enter__(self) -> Ahead:
        self.thread.start()
        try:
            self.seats = self._run(self._connect())
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._run(self._close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
            self.loop.close()

    async def _connect(self) -> list[Client]:
        return [await Client(self.ws_url, self.room_id, t).connect() for t in self.tokens]

    async def _close(self) -> None:
        for seat in self.seats:
            await seat.close()

    def play_until(self, stop: Callable[[View], bool]) -> View:
        """Play these seats' turns (each its first legal play) until ``stop`` holds of
        the view of the seat to move; returns that view.  Bots play their own turns
        meanwhile."""
        return self._run(asyncio.wait_for(_until(self.seats, stop), AHEAD_WAIT))


async def _until(seats: list[Client], stop: Callable[[View], bool]) -> View:
    for seat in seats:  # each seat's snapshot: which seat it is, and its hand
        await seat.wait_until(lambda seat=seat: seat.view is not None, AHEAD_WAIT)
    ours = {seat.view["you"]: seat for seat in seats if seat.view is not None}
    watcher = seats[0]
    while True:
        # Whose turn it is, as the first seat's view says; that seat's own view is
        # then brought to the same point (its hand is its own).
        await watcher.wait_until(lambda: _ours_to_move(watcher.view, ours), AHEAD_WAIT)
        assert watcher.view is not None
        mover = ours[watcher.view["to_move"]]
        await mover.wait_seq(watcher.seq, AHEAD_WAIT)
        view = mover.view
        assert view is not None and view["status"] == "playing" and not view["deal_over"], view
        if view["to_move"] != view["you"] or not view["legal"]:
            continue  # a turn clock played for the seat meanwhile
        if stop(view):
            return view
        move = view["legal"][0]
        answer = await mover.play(move["card"], move["take"])
        if answer["type"] == "ack":
            await watcher.wait_seq(answer["seq"], AHEAD_WAIT)
        # An error: a turn clock played first; the next view says whose turn it is.


def _ours_to_move(view: View | None, ours: dict[int, Client]) -> bool:
    if view is None:
        return False
    assert view["status"] == "playing" and not view["deal_over"], "the deal ended first"
    return view["to_move"] in ours


Seat = tuple[dict[str, Any], str, dict[str, int]]
"""A seat's answer from the API (room_id, token, seat), its player's name, and the
viewport of the page that takes it."""


def pages_near_the_end(
    new_page: Callable[..., Any], server: Server, seats: list[Seat], hand: int
) -> list[Any]:
    """The seats' turns until the stock is out and the seat to move holds at most
    ``hand`` cards go over WebSockets; then a page takes each seat (in its viewport)
    while the sockets are still open, and has its view.  Returns the pages."""
    from tests.browser.driver import Player
    from tests.browser.test_social import seat_page

    room_id = seats[0][0]["room_id"]
    with Ahead(server, room_id, [seat["token"] for seat, _, _ in seats]) as ahead:
        ahead.play_until(near_the_end(hand))
        pages = [seat_page(new_page, seat, name, size) for seat, name, size in seats]
        for page in pages:
            Player(page).wait_view()
    return pages
