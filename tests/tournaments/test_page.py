"""app/tournaments/page.py: what an event's page and CSV show a reader.  A duplicate
board stays sealed (totals, seed, standings) until every table has played it; a
Swiss table's totals show once it is done; a reader is sent only to their own
unfinished table's room; the CSV lists exactly the totals the page shows."""

from __future__ import annotations

import csv
import dataclasses
import io

from app.tournaments.page import page, results_csv
from app.tournaments.plan import EventPlan
from app.tournaments.standings import Result
from app.tournaments.store import Board, Entrant, Event, EventTable, Snapshot

NAMES = {"a": "ann", "b": "bob", "c": "cat", "d": "dan"}


def snap(fmt: str, tables: list[EventTable], results: list[Result], boards: int = 0) -> Snapshot:
    """A running event of a, b, c, d (c withdrawn late) at tables of two."""
    plan = EventPlan(fmt, 2, boards=max(boards, 1))  # type: ignore[arg-type]
    event = Event("ev", "Cup", None, "org", "Org", plan, "s", "running", 1, 4, 0, None, 1, None)
    entrants = [Entrant(k, v, 0, 9 if k == "c" else None) for k, v in NAMES.items()]
    board_list = [Board(b, f"seed{b}", f"hash{b}") for b in range(1, boards + 1)]
    return Snapshot(event, entrants, board_list, tables, results)


def table(stage: int, no: int, seats: list[str | None], done: bool) -> EventTable:
    return EventTable(stage, no, seats, f"room-{stage}-{no}", 5 if done else None)


def played(stage: int, no: int, seats: list[str | None], totals: list[int]) -> list[Result]:
    return [Result(stage, no, i, who, t) for i, (who, t) in enumerate(zip(seats, totals))]


def totals_of(shown, stage: int, no: int) -> list[int | None]:
    (t,) = [t for t in shown["tables"] if (t["stage"], t["table"]) == (stage, no)]
    return [s["total"] for s in t["seats"]]


def csv_totals(text: str) -> set[tuple[str, ...]]:
    """The CSV's second section: (stage, table, seat, username, total) rows."""
    rows = list(csv.reader(io.StringIO(text)))
    return {tuple(r) for r in rows[rows.index([]) + 2 :]}


# Duplicate: tables [a, b] and [c, d]; board 2 swaps the seats.  Table 1 has played
# both boards, table 2 only board 1 (board 2 under way in room-2-2).
T1, T2 = ["a", "b"], ["c", "d"]
DUP_TABLES = [
    table(1, 1, T1, True),
    table(2, 1, T1[::-1], True),
    table(1, 2, T2, True),
    table(2, 2, T2[::-1], False),
]
DUP_RESULTS = played(1, 1, T1, [3, 8]) + played(2, 1, T1[::-1], [4, 4]) + played(1, 2, T2, [5, 2])


def test_a_duplicate_board_is_sealed_until_every_table_played_it() -> None:
    """Board 1 (both tables done) shows its totals and seed; board 2, done at table 1
    only, shows neither, and counts for nobody in the standings."""
    shown = page(snap("duplicate", DUP_TABLES, DUP_RESULTS, boards=2), None)
    assert totals_of(shown, 1, 1) == [3, 8]
    assert totals_of(shown, 1, 2) == [5, 2]
    assert totals_of(shown, 2, 1) == [None, None]
    assert [(b["board"], b["complete"], b["seed"], b["seed_hash"]) for b in shown["boards"]] == [
        (1, True, "seed1", "hash1"),
        (2, False, None, "hash2"),
    ]
    # Board 1 only: seat 0 held by a (3) and c (5), seat 1 by b (8) and d (2).
    rows = {s["username"]: (s["score"], s["played"]) for s in shown["standings"]}
    assert rows == {"ann": (1.0, 1), "cat": (0.0, 1), "dan": (1.0, 1), "bob": (0.0, 1)}
    field = {
        (f["seat"], f["username"]): (f["total"], f["matchpoints"], f["difference"])
        for f in shown["boards"][0]["field"]
    }
    assert field == {
        (0, "ann"): (3, 1.0, 2.0),
        (0, "cat"): (5, 0.0, -2.0),
        (1, "bob"): (8, 0.0, -6.0),
        (1, "dan"): (2, 1.0, 6.0),
    }, "board 1's performance against the field, published"
    assert shown["boards"][1]["field"] == [], "board 2's, sealed"


def test_nothing_of_a_board_shows_while_one_table_is_still_playing_it() -> None:
    """Before table 2 finishes board 1, table 1's board 1 totals, the seed and every
    score stay hidden: the page shows nothing that could leak the cards."""
    tables = [table(1, 1, T1, True), table(2, 1, T1[::-1], False), table(1, 2, T2, False)]
    shown = page(snap("duplicate", tables, played(1, 1, T1, [3, 8]), boards=2), "a")
    assert totals_of(shown, 1, 1) == [None, None]
    assert all(b["seed"] is None and not b["complete"] for b in shown["boards"])
    assert all(b["field"] == [] for b in shown["boards"])
    assert all(s["score"] == 0 and s["played"] == 0 for s in shown["standings"])
    assert all(seat["total"] is None for t in shown["tables"] for seat in t["seats"])


SWISS_TABLES = [table(1, 1, ["a", "b"], True), table(1, 2, ["d", None], False)]
SWISS_RESULTS = played(1, 1, ["a", "b"], [9, 1])


def test_a_swiss_table_shows_its_totals_once_done() -> None:
    """Table 1 is done (totals shown, b won); table 2 is not (its seats, the bot's
    too, show no total)."""
    shown = page(snap("swiss", SWISS_TABLES, SWISS_RESULTS), None)
    assert totals_of(shown, 1, 1) == [9, 1]
    assert totals_of(shown, 1, 2) == [None, None]
    assert [s["bot"] for s in shown["tables"][1]["seats"]] == [False, True]
    assert {s["username"]: s["score"] for s in shown["standings"]}["bob"] == 1.0


def test_you_room_is_only_the_readers_own_unfinished_table() -> None:
    """dan plays at table 2 (unfinished): its room.  ann's table is done, cat sits
    nowhere, a stranger and a signed-out reader have none."""
    s = snap("swiss", SWISS_TABLES, SWISS_RESULTS)
    assert page(s, "d")["you"]["room_id"] == "room-1-2"
    for reader in ("a", "c", "stranger", None):
        assert page(s, reader)["you"]["room_id"] is None
    dup = snap("duplicate", DUP_TABLES, DUP_RESULTS, boards=2)
    assert page(dup, "c")["you"]["room_id"] == "room-2-2"
    assert page(dup, "a")["you"]["room_id"] is None


def test_you_says_registered_and_organiser() -> None:
    """Registered means entered and not withdrawn; organiser is the event's own."""
    s = snap("swiss", SWISS_TABLES, SWISS_RESULTS)
    assert page(s, "a")["you"] == {"registered": True, "organiser": False, "room_id": None}
    assert page(s, "c")["you"]["registered"] is False
    assert page(s, "org")["you"]["organiser"] is True
    assert page(s, None)["you"]["organiser"] is False


def test_results_csv_lists_only_the_totals_shown() -> None:
    """The CSV's totals are exactly the results of done tables on complete boards
    (duplicate) or done tables (Swiss), worked out here from the snapshot itself."""
    dup = snap("duplicate", DUP_TABLES, DUP_RESULTS, boards=2)
    expected = {
        ("1", str(r.table), str(r.seat), NAMES[r.entrant], str(r.total))
        for r in DUP_RESULTS
        if r.stage == 1 and r.entrant
    }
    assert csv_totals(results_csv(dup)) == expected
    swiss = snap("swiss", SWISS_TABLES, SWISS_RESULTS)
    assert csv_totals(results_csv(swiss)) == {
        ("1", "1", "0", "ann", "9"),
        ("1", "1", "1", "bob", "1"),
    }
    first = next(csv.reader(io.StringIO(results_csv(swiss))))
    assert first == ["place", "username", "score", "tiebreak", "played"]


def test_the_next_rounds_set_time_is_on_the_page_while_a_round_follows() -> None:
    """Rounds 30 minutes apart from the start (1 ms): the page names round 2's time
    during round 1, and no time during the last round or without set times."""
    plain = snap("swiss", [table(1, 1, ["a", "b"], False)], [])
    assert page(plain, None)["next_round_ms"] is None
    plan = EventPlan("swiss", 2, rounds=2, round_minutes=30)
    timed = dataclasses.replace(plain, event=dataclasses.replace(plain.event, plan=plan))
    assert page(timed, None)["next_round_ms"] == 1 + 30 * 60_000
    last = dataclasses.replace(timed, event=dataclasses.replace(timed.event, stage=2))
    assert page(last, None)["next_round_ms"] is None
