"""What an abuser would send to the tournaments (issue 49), through a real server: each
refusal is a clear ``{code, message}`` with its status and changes nothing.  Signed
out, a personal access token, a bot account, forged CSRF, markup and control
characters in a name, impossible plans, another club's id, ids of no event and of
the wrong shape, registering twice, past the cap, after the start, starting someone
else's event, a flood of actions from one account."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.waiting import wait_until

from .club_people import Member, club_server, refused
from .harness import ServerProcess, sql
from .token_people import Program
from .tournament_play import Entrant, new_event

ENV = {"REGISTER_PER_HOUR": "0", "MAX_ROOMS_PER_IP": "0", "DEFAULT_GRACE": "1"}
"""A short grace: a seat nobody takes is played by the stand-in at once (the leaver's
test); the tables of the other tests here are never played by anyone else."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from club_server(ENV, "sqlite", tmp_path_factory.mktemp("tournaments_hostile"))


@pytest.fixture
def made(server: ServerProcess) -> Iterator[list[Any]]:
    out: list[Any] = []
    yield out
    for each in out:
        each.close()


def person(server: ServerProcess, made: list[Any], name: str = "p") -> Entrant:
    p = Entrant(server, f"{name}_{secrets.token_hex(3)}")
    made.append(p)
    return p


def events(server: ServerProcess) -> int:
    return int(sql(server.database_url, "SELECT count(*) FROM tournaments")[0][0])


BASE = {"name": "Tuesday Kasino", "format": "swiss", "players": 2}


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"name": "<script>alert(1)</script>"}, 422, "bad_tournament"),
        ({"name": "Tues\u0000day"}, 422, "bad_tournament"),
        ({"name": "Tues\u202eday"}, 422, "bad_tournament"),
        ({"name": "ab"}, 422, "bad_tournament"),
        ({"name": "x" * 201}, 422, "bad_request"),
        ({"format": "knockout"}, 422, "bad_request"),
        ({"format": "arena", "minutes": 2}, 422, "bad_request"),
        ({"format": "arena", "pace": "correspondence", "days_per_move": 1}, 422, "bad_tournament"),
        ({"players": 7}, 422, "bad_request"),
        ({"players": "4"}, 422, "bad_request"),
        ({"rounds": 0}, 422, "bad_request"),
        ({"boards": 37, "format": "duplicate"}, 422, "bad_request"),
        ({"cap": 1}, 422, "bad_request"),
        ({"entry": "club"}, 422, "bad_tournament"),
        ({"pace": "correspondence"}, 422, "bad_tournament"),
        ({"starts_ms": 1}, 422, "bad_tournament"),
        ({"round_minutes": 0}, 422, "bad_request"),
        ({"round_minutes": 10**12}, 422, "bad_request"),
        ({"round_minutes": 7.5}, 422, "bad_request"),
        ({"round_minutes": 30, "format": "duplicate"}, 422, "bad_tournament"),
        ({"round_minutes": 30, "format": "arena"}, 422, "bad_tournament"),
        ({"rules": {"match_deals": 0}}, 422, "bad_request"),
        ({"rules": {"no_such_rule": True}}, 422, "bad_request"),
        ({"admin": True}, 422, "bad_request"),
        ({"club_id": "0" * 16}, 403, "tournament_forbidden"),
    ],
)
def test_an_impossible_event_is_refused_and_nothing_is_made(
    server: ServerProcess, made: list[Any], change: dict[str, Any], status: int, code: str
) -> None:
    ann = person(server, made)
    before = events(server)
    refused(ann.post("/api/tournaments", {**BASE, **change}), status, code)
    assert events(server) == before


def test_only_a_signed_in_person_with_the_session_makes_or_enters(
    server: ServerProcess, made: list[Any]
) -> None:
    ann = person(server, made)
    tid = new_event(ann, format="swiss")
    before = events(server)
    stranger = httpx.Client(base_url=server.url, timeout=20)
    made.append(stranger)
    refused(stranger.post("/api/tournaments", json=BASE), 401, "sign_in_required")
    refused(stranger.post(f"/api/tournaments/{tid}/registrations"), 401, "sign_in_required")
    assert stranger.get(f"/api/tournaments/{tid}").status_code == 200, "reading is open"
    forged = ann.http.post("/api/tournaments", json=BASE, headers={"X-CSRF-Token": "forged"})
    assert forged.status_code == 403 and forged.json()["code"] == "csrf_failed", forged.text
    bob = person(server, made, "bob")
    reader = Program(server, bob.token("read")["token"])
    made.append(reader)
    refused(reader.post("/api/tournaments", BASE), 403, "insufficient_scope")
    refused(reader.post(f"/api/tournaments/{tid}/registrations"), 403, "insufficient_scope")
    bot = person(server, made, "bot")
    bot.make_bot()
    refused(bot.post("/api/tournaments", BASE), 403, "tournament_forbidden")
    refused(bot.enter(tid), 403, "tournament_forbidden")
    player = Program(server, bot.token("bot:play")["token"])
    made.append(player)
    refused(player.post("/api/tournaments", BASE), 403, "session_required")
    refused(player.post(f"/api/tournaments/{tid}/registrations"), 403, "session_required")
    assert events(server) == before
    assert ann.event(tid)["entrants"] == []


def test_registration_refusals_change_nothing(server: ServerProcess, made: list[Any]) -> None:
    ann, bob, cid = (person(server, made, n) for n in ("ann", "bob", "cid"))
    tid = new_event(ann, format="duplicate", cap=2)
    refused(ann.http.get("/api/tournaments/" + "f" * 16), 404, "no_such_tournament")
    refused(ann.http.get("/api/tournaments/" + "f" * 33), 422, "bad_request")
    refused(ann.post("/api/tournaments/" + "f" * 16 + "/registrations"), 404, "no_such_tournament")
    refused(ann.post(f"/api/tournaments/{tid}/start"), 409, "too_few_entrants")
    assert ann.enter(tid).status_code == 204
    refused(ann.enter(tid), 409, "already_registered")
    refused(bob.post(f"/api/tournaments/{tid}/start"), 403, "tournament_forbidden")
    refused(bob.delete(f"/api/tournaments/{tid}/registrations"), 404, "not_registered")
    assert bob.enter(tid).status_code == 204
    refused(cid.enter(tid), 409, "tournament_full")
    assert [e["username"] for e in ann.event(tid)["entrants"]] == [ann.name, bob.name]
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    refused(ann.post(f"/api/tournaments/{tid}/start"), 409, "not_registering")
    assert bob.delete(f"/api/tournaments/{tid}/registrations").status_code == 204
    refused(cid.enter(tid), 409, "not_registering")
    refused(ann.post(f"/api/tournaments/{tid}/cancel"), 409, "not_registering")
    event = ann.event(tid)
    assert event["state"] == "running" and len(event["tables"]) == 1
    assert [e["withdrawn"] for e in event["entrants"]] == [False, True]


def test_a_club_event_is_made_by_its_organisers_and_entered_by_its_members(
    server: ServerProcess, made: list[Any]
) -> None:
    owner = Member(server, f"own_{secrets.token_hex(3)}")
    made.append(owner)
    member, outsider = person(server, made, "mem"), person(server, made, "out")
    club = owner.make(f"Club {secrets.token_hex(3)}")["id"]
    assert member.join(owner.invite(club)).status_code == 200
    body = {**BASE, "club_id": club, "entry": "club"}
    refused(member.post("/api/tournaments", body), 403, "tournament_forbidden")
    refused(outsider.post("/api/tournaments", body), 403, "tournament_forbidden")
    r = owner.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    refused(outsider.enter(tid), 403, "club_event")
    assert member.enter(tid).status_code == 204
    listed = owner.club(club)["events"]
    assert [(e["id"], e["state"]) for e in listed] == [(tid, "registering")]


def test_one_account_cannot_flood_the_tournaments(server: ServerProcess, made: list[Any]) -> None:
    ann, bob = person(server, made, "ann"), person(server, made, "bob")
    tid = new_event(ann, format="swiss")
    codes = []
    for _ in range(30):
        r = bob.enter(tid)
        codes.append(r.status_code)
        if r.status_code == 429:
            assert r.json()["code"] == "tournament_rate_limited"
            break
        assert bob.delete(f"/api/tournaments/{tid}/registrations").status_code in (204, 429)
    assert 429 in codes, codes
    for n in range(4):  # the organiser's open events are capped
        new_event(ann, format="swiss", name=f"Event {n}")
    refused(ann.post("/api/tournaments", BASE), 409, "too_many_tournaments")


def test_an_invite_only_event_takes_only_the_people_it_names(
    server: ServerProcess, made: list[Any]
) -> None:
    ann, bob, eve = (person(server, made, n) for n in ("ann", "bob", "eve"))
    refused(ann.post("/api/tournaments", {**BASE, "entry": "invite"}), 422, "bad_tournament")
    refused(ann.post("/api/tournaments", {**BASE, "invited": [bob.name]}), 422, "bad_tournament")
    body = {**BASE, "entry": "invite", "invited": [bob.name.upper(), ann.name]}
    r = ann.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    refused(eve.enter(tid), 403, "not_invited")
    assert bob.enter(tid).status_code == 204, "names compare in any case"
    assert [e["username"] for e in ann.event(tid)["entrants"]] == [bob.name]


def test_one_account_enters_a_bounded_number_of_events(
    server: ServerProcess, made: list[Any]
) -> None:
    organisers = [person(server, made, f"o{n}") for n in range(3)]
    eve = person(server, made, "eve")
    events_made = [
        new_event(o, format="swiss", name=f"Cup {n}") for o in organisers for n in range(4)
    ]
    codes = [eve.enter(tid).status_code for tid in events_made[:11]]
    assert codes == [204] * 10 + [409], codes
    refused(eve.enter(events_made[11]), 409, "too_many_entries")
    entered = sql(
        server.database_url,
        "SELECT count(*) FROM tournament_entries e JOIN accounts a ON a.id = e.account_id "
        "WHERE a.username = :u",
        u=eve.name,
    )
    assert entered == [(10,)]


def test_a_person_who_never_comes_is_played_for_and_marked(
    server: ServerProcess, made: list[Any]
) -> None:
    """Nobody sits at the table: after the grace the rooms' stand-in plays both seats
    (the room plays unattended), the event ends, and each seat is marked as left."""
    ann, bob = person(server, made, "ann"), person(server, made, "bob")
    tid = new_event(ann, format="swiss", rounds=1, rules={"match_deals": 1}, turn_clock=None)
    for p in (ann, bob):
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    wait_until(lambda: ann.event(tid)["state"] == "finished", 120, message="played for")
    (table,) = ann.event(tid)["tables"]
    assert [(s["username"], s["left"]) for s in table["seats"]] == [
        (table["seats"][0]["username"], True),
        (table["seats"][1]["username"], True),
    ]
    assert all(s["total"] is not None for s in table["seats"])
