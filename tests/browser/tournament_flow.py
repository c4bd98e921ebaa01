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


def your_room(page: Any, event_url: str, not_in: set[str]) -> str:
    """The room of the page's next table (one it has not played yet), opened.

    Its link is read and followed, not clicked: a person who comes later than the
    grace finds their table played out by the stand-in, and the link gone from the
    event's page by the time a click would reach it (a loaded run waited a minute on
    such a click); their seat is theirs all the same, and the room says so."""
    page.goto(event_url)
    href = page.wait_for_function(
        """(old) => { const a = document.querySelector('[data-testid=tournament-your-table]');
                      const to = a && a.getAttribute('href');
                      return to && !old.some((r) => to.endsWith(r)) ? to : null; }""",
        arg=sorted(not_in),
    ).json_value()
    page.goto(href)
    page.wait_for_function(SEATED)
    return str(page.url.rsplit("/", 1)[1])


def play_stage(pages: list[Any], event_url: str, played: set[str]) -> None:
    """Every page to its next table; each table played out, one after the other (a
    Swiss round: the next round's rooms come once every table of this one is done)."""
    rooms: dict[str, list[Player]] = {}
    for page in pages:
        rooms.setdefault(your_room(page, event_url, played), []).append(Player(page))
    for room, players in rooms.items():
        play_together(players, timeout=600)
        played.add(room)


def play_boards(pages: list[Any], event_url: str, boards: int) -> None:
    """A duplicate event's boards: each table's people go on to their next board as
    soon as they finish one (tables do not wait for each other), so nobody is away
    from a board's room while another table plays."""
    played: set[str] = set()
    left = {id(page): boards for page in pages}
    queue: dict[str, list[Player]] = {}
    for page in pages:
        queue.setdefault(your_room(page, event_url, played), []).append(Player(page))
    while queue:
        room = next(iter(queue))
        players = queue.pop(room)
        play_together(players, timeout=600)
        played.add(room)
        for player in players:
            left[id(player.page)] -= 1
            if left[id(player.page)]:
                nxt = your_room(player.page, event_url, played)
                queue.setdefault(nxt, []).append(Player(player.page))


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
    if fmt == "duplicate":
        play_boards(pages, event_url, count)
    else:
        played: set[str] = set()
        for _ in range(count):
            play_stage(pages, event_url, played)
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
