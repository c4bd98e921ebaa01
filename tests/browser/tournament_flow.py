"""A club's event played by eight people in their own browsers (issue 49), shared by
tests/browser/test_tournament_duplicate.py and test_tournament_swiss.py.

Eight people sign up, join a club through its invite link and enter the event from
its page; the organiser makes it on the club's page and starts it from the event's.
Everyone follows "Your table" to each of their rooms and plays every turn by
clicking their cards (a table's bots are the rooms' own).  The final standings on
the page are then compared with a calculation written here from the stored results:
a duplicate event's matchpoints (per board and seat, one for every other holder of
those cards with a higher total, a half for each equal one), a Swiss event's table
points (the same count over the players of each table)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from tests.browser.driver import Player, play_together
from tests.browser.test_clubs import made_club, signed_up
from tests.browser.test_tournament_page import made_event, registered
from tests.server.process import sql

SEATED = "() => Number.isInteger(window.__krypkasino?.store.get().view?.you)"


def your_room(page: Any, event_url: str, not_in: set[str]) -> str:
    """The room of the page's next table (one it has not played yet), opened."""
    page.goto(event_url)
    link = page.locator("[data-testid=tournament-your-table]")
    page.wait_for_function(
        """(old) => { const a = document.querySelector('[data-testid=tournament-your-table]');
                      return a && !old.some((r) => a.getAttribute('href').endsWith(r)); }""",
        arg=sorted(not_in),
    )
    link.click()
    page.wait_for_url("**/r/*")
    page.wait_for_function(SEATED)
    return str(page.url.rsplit("/", 1)[1])


def play_stage(pages: list[Any], event_url: str, played: set[str]) -> None:
    """Every page to its next table; each table played out, one after the other."""
    rooms: dict[str, list[Player]] = {}
    for page in pages:
        rooms.setdefault(your_room(page, event_url, played), []).append(Player(page))
    for room, players in rooms.items():
        play_together(players, timeout=600)
        played.add(room)


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


def people_play_a_club_event(
    new_page: Any, server: Any, fmt: str, count: int, people: int, players: int
) -> None:
    """The whole event, from sign-up to the final standings, checked: ``people`` in
    their browsers at tables of ``players`` (two a table: one pack, V2), ``count``
    boards or rounds of one deal each."""
    names = [f"P{i}_{secrets.token_hex(3)}" for i in range(people)]
    pages = [new_page() for _ in names]
    for page, name in zip(pages, names, strict=True):
        signed_up(page, name)
    owner = pages[0]
    link = made_club(owner, f"Eights {secrets.token_hex(3)}")
    club_url = owner.url
    for page in pages[1:]:
        page.goto(link)
        page.click("[data-testid=club-join]")
        page.wait_for_url("**/clubs/*")
    owner.wait_for_selector("[data-testid=club-event-form]")
    owner.select_option("[data-testid=club-event-format]", fmt)
    owner.select_option("[data-testid=club-event-players]", str(players))
    if fmt == "swiss":
        owner.select_option("[data-testid=club-event-deals]", "1")  # a deal a table
    if players == 2:
        owner.check("[data-testid=club-event-one-pack]")
    event_url = made_event(owner, f"{fmt} {secrets.token_hex(3)}", fmt, players, count, "club")
    tid = event_url.rsplit("/", 1)[1]
    for page, name in zip(pages, names, strict=True):
        page.goto(event_url)
        registered(page, name)
    owner.goto(event_url)
    owner.click("[data-testid=tournament-start]")
    owner.wait_for_selector("[data-testid=tournament-state][data-state=running]")
    played: set[str] = set()
    for _ in range(count):
        play_stage(pages, event_url, played)
    finished(owner, event_url)
    rows = results(server.database_url, tid)
    assert len(rows) == count * people, "every seat of every table, once"
    expected = matchpoints(rows) if fmt == "duplicate" else table_points(rows)
    assert shown(owner) == expected
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
    assert all(page.errors == [] for page in pages)
