"""app/tournaments/service.py's loop with a clock the test moves, over the real store
(SQLite and PostgreSQL): a Swiss event whose rounds are at set times seats each round
when its time comes and not before, and names that time on its page.  The rooms are
the port's stand-in (``RoomsOnRecord``): what is tested is when tables are seated;
playing them in real rooms is tests/server/test_tournaments.py's."""

from __future__ import annotations

from typing import Any

from app.db.tournaments import TournamentRows
from app.rooms.domain.match_end import FinishedMatch, FinishedSeat
from app.tournaments.page import page
from app.tournaments.plan import EventPlan
from app.tournaments.service import Person, Tournaments
from app.tournaments.store import TableToMake
from tests.conftest import open_store, run_async

MINUTE = 60_000
START = 1_000_000
PEOPLE = [Person(f"acct{n:028d}", f"player{n}") for n in range(4)]


class RoomsOnRecord:
    """Makes no room: names one per table and remembers the tables it was asked for."""

    def __init__(self) -> None:
        self.made: list[TableToMake] = []

    async def make(self, table: TableToMake) -> str:
        self.made.append(table)
        return f"room{table.table.stage}{table.table.table_no}".ljust(32, "0")


async def no_membership(club_id: str, account_id: str) -> None:
    return None


def ended(table: TableToMake) -> FinishedMatch:
    """The table's match over: seat 0 best, the others in seat order."""
    seats = tuple(
        FinishedSeat(i, None, who is None, False, 3 * i) for i, who in enumerate(table.table.seats)
    )
    room = f"room{table.table.stage}{table.table.table_no}".ljust(32, "0")
    return FinishedMatch(room, 1, len(seats), False, "greedy", seats, (0,), START)


def test_rounds_at_set_times_are_seated_by_the_loop_when_their_time_comes(
    database_url: str,
) -> None:
    async def check() -> None:
        now = [START]
        async with open_store(database_url) as repo:
            rooms = RoomsOnRecord()
            cup = Tournaments(TournamentRows(repo), rooms, no_membership, lambda: now[0])
            plan = EventPlan("swiss", 2, rounds=3, round_minutes=30)
            tid = await cup.create(PEOPLE[0], "Thursday league", plan)
            for p in PEOPLE:
                await cup.register(tid, p)
            await cup.start(tid, PEOPLE[0])
            assert {t.table.stage for t in rooms.made} == {1} and len(rooms.made) == 2
            shown: Any = page(await cup.snapshot(tid), None)
            assert shown["next_round_ms"] == START + 30 * MINUTE

            now[0] = START + 10 * MINUTE  # round 1 is over early
            for table in list(rooms.made):
                await cup.match_ended(ended(table))
            now[0] = START + 30 * MINUTE - 1
            await cup.tick()
            assert len(rooms.made) == 2, "round 2 waits for its time"
            assert (await cup.snapshot(tid)).event.stage == 1

            now[0] = START + 30 * MINUTE
            await cup.tick()
            await cup.tick()
            assert [t.table.stage for t in rooms.made] == [1, 1, 2, 2], "seated once"
            shown = page(await cup.snapshot(tid), None)
            assert shown["stage"] == 2 and shown["next_round_ms"] == START + 60 * MINUTE

            now[0] = START + 75 * MINUTE  # round 2 ends after round 3's time
            for table in rooms.made[2:]:
                await cup.match_ended(ended(table))
            assert [t.table.stage for t in rooms.made][4:] == [3, 3], "at once, when late"
            for table in rooms.made[4:]:
                await cup.match_ended(ended(table))
            snap = await cup.snapshot(tid)
            assert snap.event.state == "finished" and page(snap, None)["next_round_ms"] is None

    run_async(check())
