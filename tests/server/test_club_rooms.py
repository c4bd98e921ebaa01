"""Club-only rooms through a real server on SQLite and PostgreSQL (issue 49): a member
makes a room for the club; it is on the club's page for members (and not for anyone
else), a second member takes its other seat; a signed-in person outside the club, a
guest, and a member removed since are refused its seats and change nothing; a closed
club's room takes nobody new.  And what an abuser would send: a club id of no club,
of another club, malformed, a club-only room listed in the public lobby."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import run_async

from .club_people import Crowd, Member, club_server, crowd_of, refused
from .harness import Client, ServerProcess, sql

ENV = {"REGISTER_PER_HOUR": "0", "MAX_ROOMS_PER_IP": "0"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from club_server(ENV, request.param, tmp_path_factory.mktemp("club_rooms"))


@pytest.fixture
def crowd(server: ServerProcess) -> Iterator[Crowd]:
    yield from crowd_of(server)


def room_for(member: Member, club: str | None, **extra: Any) -> httpx.Response:
    body = {"players": 3, "name": member.name, "bots": 0, **extra}
    if club is not None:
        body["club_id"] = club
    return member.post("/api/rooms", body)


def seat_in(member: Member, room_id: str) -> httpx.Response:
    return member.post(f"/api/rooms/{room_id}/seats", {"name": member.name})


def seats(server: ServerProcess, room_id: str) -> list[str | None]:
    r = httpx.get(f"{server.url}/api/rooms/{room_id}", timeout=10)
    assert r.status_code == 200, r.text
    return [s["name"] for s in r.json()["seats"]]


async def watch(server: ServerProcess, room_id: str) -> dict[str, Any]:
    """A spectator's first view of the room (no seat, no account)."""
    client = await Client(server.ws_url, room_id, None).connect()
    try:
        await client.wait_for(lambda m: m["type"] == "snapshot")
        assert client.view is not None
        return client.view
    finally:
        await client.close()


def test_a_club_room_is_listed_for_members_and_seats_members_only(
    server: ServerProcess, crowd: Crowd
) -> None:
    ann, bob, eve = crowd.member("ann"), crowd.member("bob"), crowd.member("eve")
    club = ann.make("Room Club")["id"]
    assert bob.join(ann.invite(club)).status_code == 200
    made = room_for(ann, club)
    assert made.status_code == 201, made.text
    rid = made.json()["room_id"]
    (listed,) = bob.club(club)["rooms"]
    assert (listed["room_id"], listed["status"], listed["players"]) == (rid, "waiting", 3)
    assert listed["names"] == [ann.name, None, None]
    assert eve.club(club)["rooms"] == [], "outside the club: no rooms shown"
    stored = sql(server.database_url, "SELECT club_id FROM rooms WHERE id = :r", r=rid)
    assert stored == [(club,)]

    refused(seat_in(eve, rid), 403, "club_members_only")
    watched = run_async(watch(server, rid))  # but anyone with the link may watch
    assert watched["you"] is None and [s["name"] for s in watched["seats"]][0] == ann.name
    guest = httpx.post(f"{server.url}/api/rooms/{rid}/seats", json={"name": "Guest"}, timeout=10)
    refused(guest, 403, "club_members_only")
    assert seats(server, rid) == [ann.name, None, None], "nobody refused took a seat"
    taken = seat_in(bob, rid)
    assert taken.status_code == 201, taken.text
    assert seats(server, rid) == [ann.name, bob.name, None]

    # removed from the club: no seat of its rooms any more
    cid = crowd.member("cid")
    assert cid.join(ann.invite(club)).status_code == 200
    assert ann.delete(f"/api/clubs/{club}/members/{cid.name}").status_code == 204
    refused(seat_in(cid, rid), 403, "club_members_only")
    # a closed club's room takes nobody new, members included
    dan = crowd.member("dan")
    assert dan.join(ann.invite(club)).status_code == 200
    assert ann.delete(f"/api/clubs/{club}").status_code == 204
    refused(seat_in(dan, rid), 409, "club_closed")
    assert seats(server, rid) == [ann.name, bob.name, None]


def test_a_club_room_is_made_only_by_a_member_of_an_open_club(
    server: ServerProcess, crowd: Crowd
) -> None:
    ann, eve = crowd.member("ann"), crowd.member("eve")
    club = ann.make("Makers Club")["id"]
    other = eve.make("Other Club")["id"]
    before = sql(server.database_url, "SELECT count(*) FROM rooms")
    refused(room_for(eve, club), 403, "club_members_only")
    refused(room_for(ann, other), 403, "club_members_only")
    refused(room_for(ann, "0" * 16), 404, "no_such_club")
    anonymous = httpx.post(
        f"{server.url}/api/rooms",
        json={"players": 2, "name": "Guest", "club_id": club},
        timeout=10,
    )
    refused(anonymous, 403, "club_members_only")
    for bad in ("", "X" * 16, "g" * 16, "0" * 33, "../x", 7, ["a"]):
        r = ann.post("/api/rooms", {"players": 2, "name": ann.name, "club_id": bad})
        assert r.status_code == 422 and set(r.json()) == {"code", "message"}, (bad, r.text)
    refused(room_for(ann, club, public=True), 422, "bad_request")
    assert sql(server.database_url, "SELECT count(*) FROM rooms") == before, "none made"
    assert ann.club(club)["rooms"] == []
    plain = room_for(eve, None)  # a room of no club is anyone's, as before
    assert plain.status_code == 201, plain.text
    stored = sql(
        server.database_url, "SELECT club_id FROM rooms WHERE id = :r", r=plain.json()["room_id"]
    )
    assert stored == [(None,)]
