"""Quick pairing under the room caps (issue 46): a table's room counts against the
address that made its first ticket, whichever request forms it; an address at its cap
has its ticket taken out of the queue and is told why, and the others are seated
without it.  Over a real database and room service, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import secrets
from dataclasses import replace

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.core.tokens import creator_key
from app.db.pairing import PairingRows
from app.pairing.queue import Pairing
from app.pairing.seekers import Seeker, key_seeker
from app.pairing.tickets import maker_of, new_ticket
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from tests.conftest import open_store, run_async

from .test_queue import Clock

ABUSER, OTHER, THIRD = "203.0.113.66", "198.51.100.7", "192.0.2.1"


def seeker(name: str) -> Seeker:
    return key_seeker(secrets.token_urlsafe(32), name)


def test_a_ticket_id_carries_its_makers_key_and_nothing_else() -> None:
    ticket = new_ticket(ABUSER)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", ticket), "the API's pattern and the column's size"
    assert maker_of(ticket) == creator_key(ABUSER)
    assert ABUSER not in ticket
    assert new_ticket(ABUSER) != ticket, "random apart from the key"
    assert maker_of(new_ticket(None)) is None and len(new_ticket(None)) == 22


def test_paired_rooms_count_against_the_first_tickets_address(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            service = RoomService(repo, MemoryBroker())
            service.settings = replace(service.settings, max_rooms_per_creator=2)
            clock = Clock()
            pairing = Pairing(PairingRows(repo), service, RoomOptions, clock=clock)
            try:
                # bots at once: each ticket of the abuser's is a room, until its cap
                for i in range(2):
                    made = await pairing.find(seeker(f"Zed{i}"), 2, "live", 0, ABUSER)
                    assert made["status"] == "matched", made
                assert await repo.live_rooms(creator_key(ABUSER)) == (2, 2)
                late = seeker("Zed9")
                try:
                    await pairing.find(late, 2, "live", 0, ABUSER)
                except ServiceError as exc:
                    assert exc.code == "too_many_rooms"
                    assert "Find a game" in exc.message and "your address has 2" in exc.message
                else:
                    raise AssertionError("a third room for the capped address")
                assert await repo.live_rooms(creator_key(ABUSER)) == (2, 2), "nothing made"

                # waiting for people: the capped address's ticket anchors a table that
                # another person's request forms; it is taken out, the other waits on
                capped = seeker("Zed10")
                first = await pairing.find(capped, 2, "live", None, ABUSER)
                assert first["status"] == "waiting", "a ticket alone waits"
                clock.wait(1)  # the older ticket is the table's first
                cy = seeker("Cy")
                second = await pairing.find(cy, 2, "live", None, OTHER)
                assert second["status"] == "waiting", "not seated with the capped maker"
                try:
                    await pairing.status(first["ticket"], capped)
                except ServiceError as exc:
                    assert exc.code == "too_many_rooms"
                else:
                    raise AssertionError("the capped maker's ticket still waits")
                clock.wait(1)
                dee = seeker("Dee")
                third = await pairing.find(dee, 2, "live", None, THIRD)
                assert third["status"] == "matched"
                mine = await pairing.status(second["ticket"], cy)
                assert mine["status"] == "matched" and mine["room_id"] == third["room_id"]
                # the room counts against Cy's address, whose ticket came first
                assert (await repo.live_rooms(creator_key(OTHER)))[0] == 1
                assert (await repo.live_rooms(creator_key(THIRD)))[0] == 0
                assert (await repo.live_rooms(creator_key(ABUSER)))[0] == 2
            finally:
                await service.stop()

    run_async(check())
