"""Quick pairing over a real database and room service (app/pairing/queue.py with
app/db/pairing.py), on SQLite and PostgreSQL.

Time is the test's own clock (``Pairing(clock=...)``), so "after 30 s" is a number,
not a wait.  Two ``Pairing`` objects on two stores of one database are two server
processes' views of one queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.db.pairing import PairingRows
from app.pairing.matching import Widening
from app.pairing.queue import STALE_SECONDS, Pairing, Ticket
from app.pairing.seekers import Seeker, account_seeker, key_seeker
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from tests.conftest import open_store, run_async

START = 1_800_000_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms

    def wait(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


class Ratings:
    """Ratings as the ratings feature would give them: by seeker name here."""

    def __init__(self, table: dict[str, float]) -> None:
        self.table = table

    async def rating(self, seeker: Seeker, players: int) -> float | None:
        return self.table.get(seeker.name)


@contextlib.asynccontextmanager
async def pairing_on(
    url: str, clock: Clock, **kwargs: Any
) -> AsyncIterator[tuple[Pairing, RoomService]]:
    async with open_store(url) as repo:
        service = RoomService(repo, MemoryBroker())
        seated: list[tuple[str, int, Ticket]] = []

        async def owner(room_id: str, seat: int, token: str, ticket: Ticket) -> None:
            seated.append((room_id, seat, ticket))

        pairing = Pairing(
            PairingRows(repo), service, RoomOptions, owner=owner, clock=clock, **kwargs
        )
        pairing.seated = seated  # type: ignore[attr-defined]
        try:
            yield pairing, service
        finally:
            await service.stop()


def seeker(name: str) -> Seeker:
    return key_seeker(secrets.token_urlsafe(32), name)


async def code_of(coro: Any) -> str:
    try:
        await coro
    except ServiceError as exc:
        return exc.code
    raise AssertionError("not refused")


def test_two_people_are_seated_together_once(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, service):
            ann, bo = seeker("Ann"), seeker("Bo")
            first = await pairing.find(ann, 2, "live", None)
            assert first["status"] == "waiting" and first["room_id"] is None
            clock.wait(2)
            assert (await pairing.status(first["ticket"], ann))["waited_ms"] == 2000
            second = await pairing.find(bo, 2, "live", None)
            assert second["status"] == "matched"
            mine = await pairing.status(first["ticket"], ann)
            assert mine["status"] == "matched" and mine["room_id"] == second["room_id"]
            assert {mine["seat"], second["seat"]} == {0, 1}
            summary = await service.summary(second["room_id"] or "")
            assert [s["name"] for s in summary["seats"]] == ["Ann", "Bo"]
            assert summary["status"] == "playing"
            assert await service.seat_for_token(summary["room_id"], mine["token"] or "") == 0
            assert [(s, t.name) for _, s, t in pairing.seated] == [(0, "Ann"), (1, "Bo")]  # type: ignore[attr-defined]
            # Seated: a new search is a new ticket; the old one still answers.
            again = await pairing.find(ann, 3, "live", None)
            assert again["status"] == "waiting"
            assert await code_of(pairing.status(first["ticket"], ann)) == "not_found"

    run_async(check())


def test_two_processes_claiming_at_once_seat_each_person_once(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with (
            pairing_on(database_url, clock) as (one, _),
            pairing_on(database_url, clock) as (two, _),
        ):
            people = [seeker(f"P{i}") for i in range(12)]
            tickets = []
            for i, p in enumerate(people):  # queued without forming tables yet
                tickets.append(
                    await (one if i % 2 else two).find(p, 3, "live", None)
                    if i < 2
                    else await enqueue_only(one, p, 3, clock)
                )
            await asyncio.gather(*(side.match(3, "live") for side in (one, two) * 3))
            # A round that lost its claim to the other process forms no table (its next
            # round would): rounds one after the other seat whoever is left, as the
            # periodic loop does (a loaded CI run left some waiting after the six).
            for _ in range(4):
                await one.match(3, "live")
            states = [await one.status(t["ticket"], p) for t, p in zip(tickets, people)]
            assert all(s["status"] == "matched" for s in states)
            rooms: dict[str, list[int]] = {}
            for s in states:
                rooms.setdefault(s["room_id"] or "", []).append(s["seat"] or 0)
            assert len(rooms) == 4
            assert all(sorted(seats) == [0, 1, 2] for seats in rooms.values())

    run_async(check())


async def enqueue_only(pairing: Pairing, who: Seeker, players: int, clock: Clock) -> Any:
    ticket = Ticket(
        secrets.token_urlsafe(16), who.identity, who.name, players, "live", None, None,
        "waiting", clock(), clock(), who.player_hash,
    )  # fmt: skip
    assert await pairing.store.enqueue(ticket, clock() - STALE_SECONDS * 1000)
    return {"ticket": ticket.ticket}


def test_bots_fill_the_table_after_the_chosen_time(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, service):
            ann = seeker("Ann")
            t = await pairing.find(ann, 4, "live", 30)
            clock.wait(29)
            assert (await pairing.status(t["ticket"], ann))["status"] == "waiting"
            clock.wait(1)
            seated = await pairing.status(t["ticket"], ann)
            assert seated["status"] == "matched" and seated["seat"] == 0
            summary = await service.summary(seated["room_id"] or "")
            assert [s["bot"] for s in summary["seats"]] == [False, True, True, True]

    run_async(check())


def test_cancel_leaves_the_queue_and_a_seated_ticket_cannot_be_cancelled(
    database_url: str,
) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, _):
            ann, bo, cy = seeker("Ann"), seeker("Bo"), seeker("Cy")
            t = await pairing.find(ann, 2, "live", None)
            assert await code_of(pairing.cancel(t["ticket"], bo)) == "not_found"
            await pairing.cancel(t["ticket"], ann)
            assert await code_of(pairing.status(t["ticket"], ann)) == "not_found"
            assert (await pairing.find(bo, 2, "live", None))["status"] == "waiting"
            c = await pairing.find(cy, 2, "live", None)
            assert c["status"] == "matched", "Bo, not the cancelled Ann"
            assert await code_of(pairing.cancel(c["ticket"], cy)) == "already_matched"

    run_async(check())


def test_one_ticket_per_person_and_bad_input_is_refused(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, _):
            key = secrets.token_urlsafe(32)
            await pairing.find(key_seeker(key, "Ann"), 2, "live", None)
            same = key_seeker(key, "Ann again")
            assert await code_of(pairing.find(same, 3, "live", None)) == "already_queued"
            bo = seeker("Bo")
            assert await code_of(pairing.find(bo, 2, "correspondence", None)) == "bad_request"
            with pytest.raises(ValueError):  # the engine's RulesError: 422 on the wire
                await pairing.find(bo, 7, "live", None)
            account = account_seeker("acc-1", "ann", None, key)
            assert (await pairing.find(account, 4, "live", None))["status"] == "waiting", (
                "an account is another identity than its browser's key"
            )
            again = account_seeker("acc-1", "ann", "Ann", None)
            assert await code_of(pairing.find(again, 2, "live", None)) == "already_queued"

    run_async(check())


def test_a_ticket_nobody_polls_is_given_up(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, _):
            ann, bo = seeker("Ann"), seeker("Bo")
            t = await pairing.find(ann, 2, "live", None)
            clock.wait(STALE_SECONDS + 1)
            assert (await pairing.find(bo, 2, "live", None))["status"] == "waiting"
            assert await code_of(pairing.status(t["ticket"], ann)) == "not_found"
            # A tab closed and opened again: the same person may queue anew.
            assert (await pairing.find(ann, 2, "live", None))["status"] == "matched"

    run_async(check())


def test_ratings_pair_the_closest_and_widen_with_waiting(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        ratings = Ratings({"Ann": 1500, "Bo": 1900, "Cy": 1540})
        wide = Widening(base=100, per_second=10, most=1000)
        async with pairing_on(database_url, clock, ratings=ratings, widening=wide) as (p, _):
            ann, bo, cy = seeker("Ann"), seeker("Bo"), seeker("Cy")
            ta = await p.find(ann, 2, "live", None)
            tb = await p.find(bo, 2, "live", None)
            assert tb["status"] == "waiting", "400 points apart"
            tc = await p.find(cy, 2, "live", None)
            assert tc["status"] == "matched"
            assert (await p.status(ta["ticket"], ann))["room_id"] == tc["room_id"]
            dan = seeker("Dan")  # unrated: plays anyone
            assert (await p.find(dan, 2, "live", None))["status"] == "matched"
            assert (await p.status(tb["ticket"], bo))["status"] == "matched"

    run_async(check())


def test_a_claim_whose_process_died_lets_its_people_wait_again(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, _):
            ann, bo = seeker("Ann"), seeker("Bo")
            ta = await enqueue_only(pairing, ann, 2, clock)
            tb = await enqueue_only(pairing, bo, 2, clock)
            # A process claims the table, then dies before making its room.
            claimed = await pairing.store.claim(
                2, "live", clock(), lambda q: None if len(q) < 2 else table_of(q), "g" * 32
            )
            assert claimed is not None and len(claimed.tickets) == 2
            assert (await pairing.status(ta["ticket"], ann))["status"] == "forming"
            assert await code_of(pairing.cancel(tb["ticket"], bo)) == "already_matched"
            clock.wait(31)
            seated = await pairing.status(ta["ticket"], ann)
            assert seated["status"] == "matched"
            assert (await pairing.status(tb["ticket"], bo))["room_id"] == seated["room_id"]

    run_async(check())


def table_of(queue: Any) -> Any:
    from app.pairing.matching import Table

    return Table(tuple(queue[:2]), 0)


def test_polls_try_a_queue_at_most_every_quarter_second(database_url: str) -> None:
    async def check() -> None:
        clock = Clock()
        async with pairing_on(database_url, clock) as (pairing, _):
            ann, bo = seeker("Ann"), seeker("Bo")
            ta = await pairing.find(ann, 2, "live", None)  # tried: nobody else yet
            await enqueue_only(pairing, bo, 2, clock)  # queued by another process
            clock.wait(0.2)
            assert (await pairing.status(ta["ticket"], ann))["status"] == "waiting"
            clock.wait(0.05)
            assert (await pairing.status(ta["ticket"], ann))["status"] == "matched"

    run_async(check())
