"""Clubs through a real server on SQLite and PostgreSQL (issue 49): a club made,
its invite link joined by a second browser, a join request accepted, roles changed,
a member removed, ownership handed over, the old owner leaving, the club closed; a
personal access token reads clubs and may not change them.  The refusals an abuser
would try are in tests/server/test_clubs_hostile.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .club_people import Crowd, club_server, crowd_of, refused
from .harness import ServerProcess

ENV = {"REGISTER_PER_HOUR": "0"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from club_server(ENV, request.param, tmp_path_factory.mktemp("clubs"))


@pytest.fixture
def crowd(server: ServerProcess) -> Iterator[Crowd]:
    yield from crowd_of(server)


def test_a_club_from_making_to_closing(crowd: Crowd) -> None:
    ann, bob, cid = crowd.member("ann"), crowd.member("bob"), crowd.member("cid")
    made = ann.make("Thursday Kasino", "Every Thursday.\nBring friends.")
    club = made["id"]
    assert made["you"] == "owner" and made["owner"] == ann.name
    assert [(m["username"], m["role"]) for m in made["members"]] == [(ann.name, "owner")]
    assert made["rooms"] == [] and made["events"] == [] and made["leaderboard"]["rows"] == []

    outside = bob.club(club)  # a signed-in person outside the club reads its page
    assert outside["you"] is None and outside["invite_expires_ms"] is None
    assert outside["requests"] == []

    r = ann.post(f"/api/clubs/{club}/invite")
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["url"] == f"/clubs/join#{link['invite']}" and link["invite"].startswith("kkc_")
    assert ann.club(club)["invite_expires_ms"] == link["expires_ms"]
    joined = bob.join(link["invite"])
    assert joined.status_code == 200, joined.text
    assert joined.json()["you"] == "member" and joined.json()["member_count"] == 2

    r = cid.post(f"/api/clubs/{club}/requests")
    assert r.status_code == 204, r.text
    assert cid.club(club)["requested"] is True
    assert [q["username"] for q in ann.club(club)["requests"]] == [cid.name]
    assert bob.club(club)["requests"] == [], "a member sees no requests"
    r = ann.post(f"/api/clubs/{club}/requests/{cid.name}/accept")
    assert r.status_code == 204, r.text

    r = ann.put(f"/api/clubs/{club}/members/{bob.name}", {"role": "organiser"})
    assert r.status_code == 204, r.text
    page = cid.club(club)
    assert [(m["username"], m["role"]) for m in page["members"]] == [
        (ann.name, "owner"),
        (bob.name, "organiser"),
        (cid.name, "member"),
    ]
    assert page["you"] == "member" and page["member_count"] == 3
    assert {c["id"]: c["role"] for c in cid.mine()} == {club: "member"}

    r = bob.delete(f"/api/clubs/{club}/members/{cid.name}")  # an organiser removes a member
    assert r.status_code == 204, r.text
    assert cid.mine() == [] and cid.club(club)["you"] is None

    refused(ann.delete(f"/api/clubs/{club}/members/{ann.name}"), 409, "owner_must_hand_over")
    r = ann.put(f"/api/clubs/{club}/members/{bob.name}", {"role": "owner"})
    assert r.status_code == 204, r.text
    r = ann.delete(f"/api/clubs/{club}/members/{ann.name}")  # and now leaves
    assert r.status_code == 204, r.text
    page = bob.club(club)
    assert page["owner"] == bob.name
    assert [(m["username"], m["role"]) for m in page["members"]] == [(bob.name, "owner")]

    r = bob.delete(f"/api/clubs/{club}")
    assert r.status_code == 204, r.text
    closed = ann.club(club)
    assert closed["closed"] is True and closed["closed_ms"] is not None
    refused(ann.post(f"/api/clubs/{club}/requests"), 409, "club_closed")
    refused(ann.join(link["invite"]), 404, "bad_invite")
    assert bob.mine() == [
        {"id": club, "name": "Thursday Kasino", "role": "owner", "closed": True, "member_count": 1}
    ]


def test_a_token_reads_clubs_and_may_not_change_them(crowd: Crowd) -> None:
    ann = crowd.member("ann")
    ann.make_bot()  # a bot account may own a club; its bot:play token plays, not runs it
    club = ann.make("Token Readers")["id"]
    program = crowd.program(ann.token("bot:play")["token"])
    reader = crowd.program(ann.token("read", name="reader")["token"])
    assert reader.get(f"/api/clubs/{club}").json()["you"] == "owner"
    refused(reader.post(f"/api/clubs/{club}/invite"), 403, "insufficient_scope")
    r = program.get(f"/api/clubs/{club}")
    assert r.status_code == 200 and r.json()["you"] == "owner", r.text
    assert program.get("/api/clubs?mine=1").json()["clubs"][0]["id"] == club
    before = ann.club(club)
    refused(program.post(f"/api/clubs/{club}/invite"), 403, "session_required")
    refused(program.delete(f"/api/clubs/{club}"), 403, "session_required")
    refused(program.post("/api/clubs", {"name": "Made by a bot"}), 403, "session_required")
    assert ann.club(club) == before
    assert [c["name"] for c in ann.mine()] == ["Token Readers"]


def test_signed_out_nothing_is_read_or_made(server: ServerProcess, crowd: Crowd) -> None:
    import httpx

    ann = crowd.member("ann")
    club = ann.make("Members Only Page")["id"]
    with httpx.Client(base_url=server.url, timeout=20) as anonymous:
        refused(anonymous.get(f"/api/clubs/{club}"), 401, "sign_in_required")
        refused(anonymous.get("/api/clubs?mine=1"), 401, "sign_in_required")
        refused(anonymous.post("/api/clubs", json={"name": "Anon"}), 401, "sign_in_required")


def test_the_account_export_lists_its_clubs_and_roles(crowd: Crowd) -> None:
    """What the server keeps about a person includes the clubs they are in (GET
    /api/me/export), a closed one too, and no club they are not in."""
    ann, bob = crowd.member("ann"), crowd.member("bob")
    mine = ann.make("Export Club")["id"]
    other = bob.make("Not Anns Club")["id"]
    shut = ann.make("Shut Club")["id"]
    assert ann.delete(f"/api/clubs/{shut}").status_code == 204
    r = ann.http.get("/api/me/export")
    assert r.status_code == 200, r.text
    clubs = {c["id"]: (c["name"], c["role"], c["closed"]) for c in r.json()["clubs"]}
    assert clubs == {
        mine: ("Export Club", "owner", False),
        shut: ("Shut Club", "owner", True),
    }
    assert other not in clubs


def test_the_directory_finds_open_clubs_by_name_as_names_are_compared(crowd: Crowd) -> None:
    """GET /api/clubs?q=: open clubs whose name holds the words, case and look-alike
    letters aside, the most members first; a closed club is not listed; ``%`` and
    ``_`` are letters, not wildcards; a query over 40 characters is refused."""
    import secrets

    tag = secrets.token_hex(3)
    ann, bob = crowd.member("ann"), crowd.member("bob")
    small = ann.make(f"Kasino {tag} Tuesday")["id"]
    big = bob.make(f"Kasino {tag} Friday")["id"]
    assert ann.join(bob.invite(big)).status_code == 200
    shut = ann.make(f"Kasino {tag} Closed")["id"]
    assert ann.delete(f"/api/clubs/{shut}").status_code == 204
    ann.make(f"Other {tag} 100% fun")

    def found(q: str) -> list[str]:
        r = bob.http.get("/api/clubs", params={"q": q})
        assert r.status_code == 200, r.text
        assert all(c["role"] is None and c["closed"] is False for c in r.json()["clubs"])
        return [c["id"] for c in r.json()["clubs"]]

    assert found(f"kasino {tag}") == [big, small], "most members first; the closed one gone"
    assert found(f"KАSINO {tag}") == [big, small], "a Cyrillic А finds the Latin A"
    assert found(f"{tag} 100%") != [] and found(f"{tag} 10_%") == []
    assert found(f"{tag}%") == [], "% is a letter here"
    r = bob.http.get("/api/clubs", params={"q": "x" * 41})
    refused(r, 422, "bad_request")
