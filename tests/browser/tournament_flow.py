"""A club's event played from registration to its standings (issue 49), shared by
tests/browser/test_tournament_duplicate.py and test_tournament_swiss.py.

People sign up, join a club through its invite link and enter the event from its
page; the organiser makes it on the club's page and starts it from the event's.
Those in browsers follow "Your table" to each of their rooms and play every turn by
clicking their cards; the others never come, and the rooms' stand-in bot plays for
them.  The final standings on the page, and a duplicate event's published
performance on each board, are then compared with a calculation written here from
the stored results: a duplicate event's matchpoints (per board and seat, one for
every other holder of those cards with a higher total, a half for each equal one),
a Swiss event's table points (the same count over the players of each table)."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, Server
from tests.browser.driver import Player, play_together
from tests.browser.test_clubs import made_club, signed_up
from tests.browser.test_tournament_page import made_event, registered
from tests.browser.waits import WAIT_MS
from tests.server.process import sql
from tests.server.token_people import Person

SEATED = "() => Number.isInteger(window.__krypkasino?.store.get().view?.you)"

NEXT_TABLE = """async ([tid, me, old]) => {
    const r = await fetch(`/api/tournaments/${tid}`, {cache: "no-store"});
    if (!r.ok) return null;
    const t = (await r.json()).tables.find((t) => t.room_id && !old.includes(t.room_id)
        && t.seats.some((s) => s.username === me));
    return t ? {room: t.room_id, done: t.done} : null;
}"""
"""The first table in the event's JSON that seats ``me`` and is not one of ``old``:
its room, and whether it is over already."""


class Entrant:
    """A person in a browser, and the tables they are through with."""

    def __init__(self, page: Any, name: str) -> None:
        self.page, self.name = page, name
        self.through: set[str] = set()

    def next_room(self, event_url: str) -> str | None:
        """The room of this person's next table, opened; None if the stand-in played
        it out before they came (then it is theirs all the same, and over).

        The table is read from the event's JSON, not from the "Your table" link: a
        person who comes later than the grace (GRACE_S) may find the table played out
        and the link gone from the page for good (a loaded CI run waited a minute on
        such a link)."""
        page, tid = self.page, event_url.rsplit("/", 1)[1]
        page.goto(event_url)
        deadline = time.monotonic() + WAIT_MS / 1000
        while (found := page.evaluate(NEXT_TABLE, [tid, self.name, sorted(self.through)])) is None:
            assert time.monotonic() < deadline, f"no next table for {self.name} in {WAIT_MS} ms"
            page.wait_for_timeout(200)  # the server's loop seats the next stage
        room = str(found["room"])
        self.through.add(room)
        if found["done"]:
            return None
        page.goto(f"/r/{room}")
        page.wait_for_function(SEATED)
        return room


def play_stage(entrants: list[Entrant], event_url: str) -> None:
    """Every person to their next table; each table played out, one after the other
    (a Swiss round: the next round's rooms come once every table of this one is done)."""
    rooms: dict[str, list[Player]] = {}
    for person in entrants:
        if (room := person.next_room(event_url)) is not None:
            rooms.setdefault(room, []).append(Player(person.page))
    for players in rooms.values():
        play_together(players, timeout=600, clock=True)


def play_boards(entrants: list[Entrant], event_url: str, boards: int) -> None:
    """A duplicate event's boards: each table's people go on to their next board as
    soon as they finish one (tables do not wait for each other), so nobody is away
    from a board's room while another table plays."""
    queue: dict[str, list[Entrant]] = {}

    def to_next(person: Entrant) -> None:
        """The person to their next open table, queued there (tables the stand-in
        played out before they came are passed over)."""
        while len(person.through) < boards:
            if (room := person.next_room(event_url)) is not None:
                queue.setdefault(room, []).append(person)
                return

    for person in entrants:
        to_next(person)
    while queue:
        people = queue.pop(next(iter(queue)))
        play_together([Player(person.page) for person in people], timeout=600, clock=True)
        for person in people:
            to_next(person)


def results(url: str, tid: str) -> list[tuple[int, int, int, str | None, int]]:
    rows = sql(
        url,
        "SELECT r.stage, r.table_no, r.seat, e.username, r.total FROM tournament_results r "
        "LEFT JOIN tournament_entries e ON e.tournament_id = r.tournament_id "
        "AND e.account_id = r.account_id WHERE r.tournament_id = :t",
        t=tid,
    )
    return [(int(a), int(b), int(c), d, int(e)) for a, b, c, d, e in rows]


def beaten(mine: int, other: int) -> float:
    return 1.0 if other > mine else 0.5 if other == mine else 0.0


def matchpoints(rows: list[tuple[int, int, int, str | None, int]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for board, table, seat, who, total in rows:
        if who is not None:
            others = [t for b, tb, s, _, t in rows if (b, s) == (board, seat) and tb != table]
            out[who] = out.get(who, 0.0) + sum(beaten(total, o) for o in others)
    return out


def board_matchpoints(rows: list[tuple[int, int, int, str | None, int]]) -> dict[str, float]:
    """Each person's matchpoints on each board, keyed "board:username"."""
    out: dict[str, float] = {}
    for board, table, seat, who, total in rows:
        if who is not None:
            others = [t for b, tb, s, _, t in rows if (b, s) == (board, seat) and tb != table]
            out[f"{board}:{who}"] = sum(beaten(total, o) for o in others)
    return out


def shown_per_board(page: Any) -> dict[str, float]:
    """The boards' published performance on the event's page, keyed "board:username"."""
    out: dict[str, float] = {}
    for table in page.query_selector_all("[data-testid=tournament-board-field]"):
        board = table.get_attribute("data-board")
        for r in table.query_selector_all("tbody tr"):
            who = r.get_attribute("data-username")
            if who:
                out[f"{board}:{who}"] = float(str(r.get_attribute("data-matchpoints")))
    return out


def table_points(rows: list[tuple[int, int, int, str | None, int]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for rnd, table, seat, who, total in rows:
        if who is not None:
            others = [t for r, tb, s, _, t in rows if (r, tb) == (rnd, table) and s != seat]
            out[who] = out.get(who, 0.0) + sum(beaten(total, o) for o in others)
    return out


def shown(page: Any) -> dict[str, float]:
    rows = page.query_selector_all("[data-testid=tournament-standings] tbody tr")
    return {
        str(r.get_attribute("data-username")): float(str(r.get_attribute("data-score")))
        for r in rows
    }


def finished(page: Any, event_url: str) -> None:
    page.goto(event_url)
    page.wait_for_selector("[data-testid=tournament-state][data-state=finished]")


GRACE_S = "5"
"""The test server's grace: an entrant who never opens their table is played for by
the rooms' stand-in (a bot) at once, and a browser that comes takes its seat back."""


@pytest.fixture(scope="module")
def quick_server(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("tournaments"), env={"DEFAULT_GRACE": GRACE_S})
    yield srv
    srv.stop()


def page_on(browser: Any, server: Server) -> Any:
    """A page of a fresh browser context (a person) on ``server``."""
    ctx = browser.new_context(
        viewport=DESKTOP,
        base_url=server.url,
        locale="en-GB",
        reduced_motion="reduce",
        service_workers="block",
    )
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def people_play_a_club_event(
    browser: Any, server: Server, fmt: str, count: int, people: int, players: int, browsers: int
) -> None:
    """The whole event, from sign-up to the final standings, checked: ``people``
    entrants at tables of ``players`` (two a table: one pack, V2), ``count`` boards or
    rounds of one deal each.  The first ``browsers`` of them sign up, join, enter and
    play in their own browsers; the others sign up, join and enter over HTTP and never
    come to their tables, so the rooms' stand-in bot plays for them (marked "left")."""
    names = [f"P{i}_{secrets.token_hex(3)}" for i in range(people)]
    pages = [page_on(browser, server) for _ in range(browsers)]
    for page, name in zip(pages, names, strict=False):
        signed_up(page, name)
    owner = pages[0]
    link = made_club(owner, f"Eights {secrets.token_hex(3)}")
    club_url = owner.url
    for page in pages[1:]:
        page.goto(link)
        page.click("[data-testid=club-join]")
        page.wait_for_url("**/clubs/*")
    absent = [Person(server, name) for name in names[browsers:]]  # type: ignore[arg-type]
    for person in absent:
        joined = person.post("/api/clubs/join", {"invite": link.split("#", 1)[1]})
        assert joined.status_code == 200, joined.text
    owner.wait_for_selector("[data-testid=club-event-form]")
    owner.select_option("[data-testid=club-event-format]", fmt)
    owner.select_option("[data-testid=club-event-players]", str(players))
    if fmt == "swiss":
        owner.select_option("[data-testid=club-event-deals]", "1")  # a deal a table
    if players == 2:
        owner.check("[data-testid=club-event-one-pack]")
    event_url = made_event(owner, f"{fmt} {secrets.token_hex(3)}", fmt, players, count, "club")
    tid = event_url.rsplit("/", 1)[1]
    for page, name in zip(pages, names, strict=False):
        page.goto(event_url)
        registered(page, name)
    for person in absent:
        assert person.post(f"/api/tournaments/{tid}/registrations").status_code == 204
    owner.goto(event_url)
    owner.click("[data-testid=tournament-start]")
    owner.wait_for_selector("[data-testid=tournament-state][data-state=running]")
    entrants = [Entrant(page, name) for page, name in zip(pages, names, strict=False)]
    if fmt == "duplicate":
        play_boards(entrants, event_url, count)
    else:
        for _ in range(count):
            play_stage(entrants, event_url)
    finished(owner, event_url)
    rows = results(server.database_url, tid)
    assert len(rows) == count * people, "every seat of every table, once"
    expected = matchpoints(rows) if fmt == "duplicate" else table_points(rows)
    assert shown(owner) == expected
    if fmt == "duplicate":  # and each board's, as published once every table played it
        assert shown_per_board(owner) == board_matchpoints(rows)
    assert set(expected) == set(names)
    best = max(expected.values())
    owner.goto(club_url)  # the club's page keeps the event with its winners
    listed = owner.wait_for_selector(f"[data-testid=club-event][data-event='{tid}']")
    won = listed.query_selector("[data-testid=club-event-winners]")
    assert won is not None
    winners = {n.strip() for n in won.text_content().removeprefix("won by ").split(",")}
    assert winners and winners <= {n for n, v in expected.items() if v == best}, winners
    if fmt == "swiss":  # four people over three rounds of two: each meets each once
        seats = sql(
            server.database_url,
            "SELECT seats FROM tournament_tables WHERE tournament_id = :t",
            t=tid,
        )
        pairs = [frozenset(json.loads(row[0])) for row in seats]
        assert len(pairs) == len(set(pairs)) == count * people // players, pairs
    if absent:  # the stand-in's seats are marked on the event's page
        owner.goto(event_url)
        owner.wait_for_selector("[data-testid=tournament-left]")
    for person in absent:
        person.close()
    assert all(page.errors == [] for page in pages)
    for page in pages:
        page.context.close()
