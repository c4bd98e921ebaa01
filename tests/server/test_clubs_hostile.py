"""What an abuser would send to the clubs (issue 49), through a real server on SQLite
and PostgreSQL: a member acting as an organiser, a removed member coming back through
an old link, guessed, expired and revoked links, look-alike names, oversized, HTML and
control-character names and descriptions, floods of clubs and requests, another club's
members, a closed club.  Each is refused with its code, and the club's page (read by
its owner) is the same after as before."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from .club_people import Crowd, Member, club_server, crowd_of, refused
from .harness import ServerProcess, sql

ENV = {
    "REGISTER_PER_HOUR": "0",
    "CLUB_ACTIONS_PER_MINUTE": "6",
    "CLUB_REQUESTS_PER_ACCOUNT": "3",
    "CLUB_REQUESTS_MAX": "3",
}
"""Six club actions an account at once (then one each ten seconds), three pending
requests an account and a club."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from club_server(ENV, request.param, tmp_path_factory.mktemp("clubs-hostile"))


@pytest.fixture
def crowd(server: ServerProcess) -> Iterator[Crowd]:
    yield from crowd_of(server)


def unchanged(owner: Member, club: str, attempts: Callable[[], None]) -> None:
    """Run the refused ``attempts``; the page reads the same before and after."""
    before = owner.club(club)
    attempts()
    assert owner.club(club) == before


def club_with(crowd: Crowd, name: str) -> tuple[str, Member, Member, Member]:
    """A club of an owner, an organiser and a member."""
    owner, organiser, member = crowd.member("own"), crowd.member("org"), crowd.member("mem")
    club = owner.make(name)["id"]
    link = owner.invite(club)
    for each in (organiser, member):
        assert each.join(link).status_code == 200
    r = owner.put(f"/api/clubs/{club}/members/{organiser.name}", {"role": "organiser"})
    assert r.status_code == 204, r.text
    return club, owner, organiser, member


def test_a_member_acting_as_an_organiser_is_refused(crowd: Crowd) -> None:
    club, owner, organiser, member = club_with(crowd, "Pecking Order")
    asker = crowd.member("ask")
    assert asker.post(f"/api/clubs/{club}/requests").status_code == 204

    def attempts() -> None:
        base = f"/api/clubs/{club}"
        forbidden = "club_forbidden"
        refused(member.post(f"{base}/invite"), 403, forbidden)
        refused(member.delete(f"{base}/invite"), 403, forbidden)
        refused(member.post(f"{base}/requests/{asker.name}/accept"), 403, forbidden)
        refused(member.post(f"{base}/requests/{asker.name}/refuse"), 403, forbidden)
        refused(member.delete(f"{base}/members/{organiser.name}"), 403, forbidden)
        refused(member.put(f"{base}/members/{member.name}", {"role": "owner"}), 403, forbidden)
        refused(member.delete(base), 403, forbidden)
        # An organiser does not change roles, remove an organiser or the owner, or close.
        refused(
            organiser.put(f"{base}/members/{member.name}", {"role": "organiser"}), 403, forbidden
        )
        refused(organiser.delete(f"{base}/members/{owner.name}"), 403, forbidden)
        refused(organiser.delete(base), 403, forbidden)
        refused(owner.put(f"{base}/members/{owner.name}", {"role": "member"}), 403, forbidden)
        refused(owner.put(f"{base}/members/{member.name}", {"role": "admin"}), 422, "bad_request")
        # Without the CSRF header the gate refuses before any club is read.
        r = member.http.post(f"{base}/invite")
        refused(r, 403, "csrf_failed")

    unchanged(owner, club, attempts)


def test_links_guessed_expired_revoked_or_old_let_nobody_in(
    server: ServerProcess, crowd: Crowd
) -> None:
    club, owner, _, member = club_with(crowd, "Locked Door")
    stranger = crowd.member("str")

    def attempts() -> None:
        for guess in ("kkc_" + "A" * 32, "kkc_", "", "x" * 5000, "kkc_" + "A" * 200):
            refused(stranger.join(guess), 404, "bad_invite")
        refused(stranger.post("/api/clubs/join", {"invite": 12345}), 422, "bad_request")
        refused(stranger.post("/api/clubs/join", {"invite": "x", "club": club}), 422, "bad_request")

    unchanged(owner, club, attempts)

    old = owner.invite(club)
    current = owner.invite(club)  # renewing revokes the old link
    stranger = crowd.member("sec")  # the first spent its club actions guessing
    refused(stranger.join(old), 404, "bad_invite")
    # The member is removed, and comes back with the link it had: refused.
    assert owner.delete(f"/api/clubs/{club}/members/{member.name}").status_code == 204
    unchanged(owner, club, lambda: refused(member.join(current), 403, "removed_from_club"))
    # The link runs out.
    sql(server.database_url, "UPDATE clubs SET invite_expires_ms = 1 WHERE id = :c", c=club)
    unchanged(owner, club, lambda: refused(stranger.join(current), 404, "bad_invite"))
    # Revoked.
    fresh = owner.invite(club)
    assert owner.delete(f"/api/clubs/{club}/invite").status_code == 204
    unchanged(owner, club, lambda: refused(stranger.join(fresh), 404, "bad_invite"))
    assert owner.club(club)["invite_expires_ms"] is None


def test_look_alike_and_malformed_names_and_descriptions(crowd: Crowd) -> None:
    ann, bea = crowd.member("ann"), crowd.member("bea")
    base = f"Club {ann.name[-6:]}"  # a name of this test's own on the shared server
    club = ann.make(base)["id"]
    html = "<img src=x onerror=alert(1)>"

    def attempts() -> None:
        for look_alike in (
            base.replace("C", "\u0421"),  # Cyrillic Es
            base.upper(),
            base.replace(" ", "  "),
            base.replace("l", "1"),
            base + "\u200b",
        ):
            refused(bea.post("/api/clubs", {"name": look_alike}), 409, "club_name_taken")
        for name in ("ab", "x" * 41, html, "Bad\x00Name", "Bad\x1bName", "Tab\u202eRight", "&amp;"):
            refused(bea.post("/api/clubs", {"name": name}), 422, "bad_club_name")
        for text in ("y" * 501, html, "<script>x</script>", "nul\x00", "bell\x07"):
            r = bea.post("/api/clubs", {"name": "Fine Name " + bea.name[-6:], "description": text})
            refused(r, 422, "bad_club_description")
        refused(bea.post("/api/clubs", {"name": ["a", "b", "c"]}), 422, "bad_request")
        refused(bea.post("/api/clubs", {"description": "no name"}), 422, "bad_request")
        r = bea.http.post(
            "/api/clubs",
            content=b'{"name": "x' + b"y" * 200_000 + b'"}',
            headers={**bea.csrf(), "content-type": "application/json"},
        )
        assert r.status_code == 413, r.text

    unchanged(ann, club, attempts)
    assert bea.mine() == []


def test_floods_of_clubs_and_requests_are_capped(crowd: Crowd) -> None:
    flood = crowd.member("fld")
    made = [flood.make(f"Flood {flood.name[-6:]} {n}")["id"] for n in range(3)]
    for n in range(3, 6):  # three owned is the most; each try still counts against the rate
        r = flood.post("/api/clubs", {"name": f"Flood {flood.name[-6:]} {n}"})
        refused(r, 409, "too_many_clubs_owned")
    r = flood.post("/api/clubs", {"name": f"Flood {flood.name[-6:]} 9"})
    refused(r, 429, "club_rate_limited")
    assert sorted(c["id"] for c in flood.mine()) == sorted(made)

    owners = [crowd.member(f"o{n}") for n in range(4)]
    clubs = [o.make(f"Asked {o.name[-6:]}")["id"] for o in owners]
    asker = crowd.member("ask")
    for club in clubs[:3]:
        assert asker.post(f"/api/clubs/{club}/requests").status_code == 204
    unchanged(
        owners[3],
        clubs[3],
        lambda: refused(
            asker.post(f"/api/clubs/{clubs[3]}/requests"), 409, "too_many_club_requests"
        ),
    )
    refused(asker.post(f"/api/clubs/{clubs[0]}/requests"), 409, "club_request_pending")
    # A club takes three requests waiting: a fourth account is refused.
    for n in range(2):
        assert crowd.member(f"a{n}").post(f"/api/clubs/{clubs[0]}/requests").status_code == 204
    late = crowd.member("late")
    unchanged(
        owners[0],
        clubs[0],
        lambda: refused(
            late.post(f"/api/clubs/{clubs[0]}/requests"), 409, "too_many_club_requests"
        ),
    )


def test_another_clubs_members_and_a_closed_club(crowd: Crowd) -> None:
    club_a, owner_a, _, _ = club_with(crowd, "Club Alpha " + crowd.member("x").name[-6:])
    club_b, owner_b, _, member_b = club_with(crowd, "Club Beta " + crowd.member("y").name[-6:])
    asker = crowd.member("ask")
    assert asker.post(f"/api/clubs/{club_b}/requests").status_code == 204

    def on_a() -> None:
        refused(
            owner_a.delete(f"/api/clubs/{club_a}/members/{member_b.name}"), 404, "not_club_member"
        )
        r = owner_a.put(f"/api/clubs/{club_a}/members/{member_b.name}", {"role": "organiser"})
        refused(r, 404, "not_club_member")
        refused(
            owner_a.post(f"/api/clubs/{club_a}/requests/{asker.name}/accept"),
            404,
            "no_club_request",
        )
        refused(
            owner_a.delete(f"/api/clubs/{club_a}/members/nobody_at_all"), 404, "not_club_member"
        )

    def on_b() -> None:
        refused(
            owner_a.delete(f"/api/clubs/{club_b}/members/{member_b.name}"), 403, "club_forbidden"
        )
        refused(
            owner_a.post(f"/api/clubs/{club_b}/requests/{asker.name}/accept"), 403, "club_forbidden"
        )
        refused(owner_a.delete(f"/api/clubs/{club_b}"), 403, "club_forbidden")
        refused(owner_a.post(f"/api/clubs/{club_b}/invite"), 403, "club_forbidden")
        refused(owner_a.http.get("/api/clubs/" + "f" * 16), 404, "no_such_club")
        refused(owner_a.http.get("/api/clubs/" + "x" * 33), 422, "bad_request")

    unchanged(owner_a, club_a, on_a)
    unchanged(owner_b, club_b, on_b)

    link = owner_b.invite(club_b)
    assert owner_b.delete(f"/api/clubs/{club_b}").status_code == 204
    outsider = crowd.member("out")

    def closed() -> None:
        refused(outsider.join(link), 404, "bad_invite")
        refused(outsider.post(f"/api/clubs/{club_b}/requests"), 409, "club_closed")
        refused(owner_b.post(f"/api/clubs/{club_b}/invite"), 409, "club_closed")
        refused(
            owner_b.post(f"/api/clubs/{club_b}/requests/{asker.name}/accept"), 409, "club_closed"
        )
        refused(member_b.delete(f"/api/clubs/{club_b}/members/{member_b.name}"), 409, "club_closed")
        refused(owner_b.delete(f"/api/clubs/{club_b}"), 409, "club_closed")

    unchanged(owner_b, club_b, closed)
    page = owner_b.club(club_b)
    assert page["closed"] and page["requests"] == [] and page["invite_expires_ms"] is None


def test_anonymous_and_foreign_origin_requests_are_refused(
    server: ServerProcess, crowd: Crowd
) -> None:
    ann = crowd.member("ann")
    club = ann.make("Origin " + ann.name[-6:])["id"]

    def attempts() -> None:
        r = ann.http.post(
            f"/api/clubs/{club}/invite", headers={**ann.csrf(), "Origin": "https://evil.example"}
        )
        refused(r, 403, "bad_origin")
        with httpx.Client(base_url=server.url, timeout=20) as anonymous:
            refused(
                anonymous.post("/api/clubs/join", json={"invite": "kkc_x"}), 401, "sign_in_required"
            )

    unchanged(ann, club, attempts)
