"""The clubs on real SQLite and PostgreSQL (app/db/clubs.py under app/clubs/service.py):
the whole life of a club, its limits held in the transaction that acts (the member cap
by many joins at once), the invite link's expiry, revocation and renewal, and refusals
that change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from app.accounts.names import fold
from app.clubs.errors import ClubCode, ClubRefused
from app.clubs.rules import ClubLimits, Role
from app.clubs.service import Clubs, ClubSettings
from app.core.errors import ServiceError
from app.db.accounts import AccountRows
from app.db.clubs import ClubRows
from tests.conftest import open_store, run_async
from tests.server.process import sql

LIMITS = ClubLimits(
    owned=2, joined=3, members=4, requests_per_club=2, requests_per_account=2, invite_ms=1000
)


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


async def refused(pending: Awaitable[Any]) -> str:
    with pytest.raises(ServiceError) as caught:
        await pending
    return caught.value.code


async def people(repo: Any, *names: str) -> dict[str, str]:
    rows = AccountRows(repo)
    made = {}
    for n, name in enumerate(names):
        account_id = f"acct{n:028d}"
        await rows.create_account(account_id, name, fold(name), None, 1000 + n)
        made[name] = account_id
    return made


def clubs_on(repo: Any, clock: Clock, limits: ClubLimits = LIMITS) -> Clubs:
    return Clubs(ClubRows(repo), ClubSettings(limits, actions_per_minute=0), clock)


def roles(page: dict[str, Any]) -> dict[str, str]:
    return {m["username"]: m["role"] for m in page["members"]}


def test_a_club_from_making_to_closing(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            clock = Clock()
            clubs = clubs_on(repo, clock)
            ids = await people(repo, "ann", "bob", "cid", "dan")
            made = await clubs.create(ids["ann"], "  Tuesday   Club ", "We play.\nOften.")
            club = made["id"]
            assert made["name"] == "Tuesday Club" and made["description"] == "We play.\nOften."
            assert made["you"] == "owner" and roles(made) == {"ann": "owner"}
            assert made["member_count"] == 1 and made["owner"] == "ann"
            assert made["rooms"] == []

            link = await clubs.renew_invite(club, ids["ann"])
            assert link["url"].endswith("#" + link["invite"])
            assert await clubs.join(link["invite"], ids["bob"]) == club
            await clubs.request(club, ids["cid"])
            seen = await clubs.club(club, ids["ann"])
            assert [r["username"] for r in seen["requests"]] == ["cid"]
            assert (await clubs.club(club, ids["bob"]))["requests"] == [], "members see none"
            assert (await clubs.club(club, ids["cid"]))["requested"] is True
            await clubs.answer(club, ids["ann"], "CID", True)  # a name in any case
            await clubs.set_role(club, ids["ann"], "bob", Role.ORGANISER)
            page = await clubs.club(club, ids["dan"])
            assert roles(page) == {"ann": "owner", "bob": "organiser", "cid": "member"}
            assert page["you"] is None and page["invite_expires_ms"] is None
            assert [m["username"] for m in page["members"]] == ["ann", "bob", "cid"]

            await clubs.remove(club, ids["bob"], "cid")  # an organiser removes a member
            assert await refused(clubs.remove(club, ids["ann"], "ann")) == (
                ClubCode.OWNER_MUST_HAND_OVER
            )
            await clubs.set_role(club, ids["ann"], "bob", Role.OWNER)  # handed over
            page = await clubs.club(club, ids["ann"])
            assert roles(page) == {"bob": "owner", "ann": "organiser"} and page["owner"] == "bob"
            await clubs.remove(club, ids["ann"], "ann")  # and now leaves
            assert roles(await clubs.club(club, ids["bob"])) == {"bob": "owner"}
            assert await clubs.mine(ids["ann"]) == []
            await clubs.close(club, ids["bob"])
            closed = await clubs.club(club, ids["bob"])
            assert closed["closed"] and closed["closed_ms"] == clock.ms
            assert await refused(clubs.request(club, ids["dan"])) == ClubCode.CLUB_CLOSED
            assert await refused(clubs.join(link["invite"], ids["dan"])) == ClubCode.BAD_INVITE
            (mine,) = await clubs.mine(ids["bob"])
            assert mine == {
                "id": club,
                "name": "Tuesday Club",
                "role": "owner",
                "closed": True,
                "member_count": 1,
            }

    run_async(check())


def test_the_invite_link_expires_is_revoked_and_renewed(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            clock = Clock()
            clubs = clubs_on(repo, clock)
            ids = await people(repo, "ann", "bob", "cid", "dan", "eve")
            club = (await clubs.create(ids["ann"], "Linked", ""))["id"]
            old = (await clubs.renew_invite(club, ids["ann"]))["invite"]
            new = (await clubs.renew_invite(club, ids["ann"]))["invite"]
            assert await refused(clubs.join(old, ids["bob"])) == ClubCode.BAD_INVITE
            assert await refused(clubs.join("kkc_" + "A" * 32, ids["bob"])) == ClubCode.BAD_INVITE
            assert await refused(clubs.join("x" * 10_000, ids["bob"])) == ClubCode.BAD_INVITE
            clock.ms += LIMITS.invite_ms
            assert await refused(clubs.join(new, ids["bob"])) == ClubCode.BAD_INVITE
            fresh = (await clubs.renew_invite(club, ids["ann"]))["invite"]
            await clubs.join(fresh, ids["bob"])
            assert await refused(clubs.join(fresh, ids["bob"])) == ClubCode.ALREADY_CLUB_MEMBER
            assert await refused(clubs.renew_invite(club, ids["bob"])) == ClubCode.CLUB_FORBIDDEN
            await clubs.remove(club, ids["ann"], "bob")
            assert await refused(clubs.join(fresh, ids["bob"])) == ClubCode.REMOVED_FROM_CLUB
            await clubs.request(club, ids["bob"])  # a request still reaches the organisers
            await clubs.answer(club, ids["ann"], "bob", True)
            await clubs.remove(club, ids["bob"], "bob")
            await clubs.join(fresh, ids["bob"])  # accepted back: the link lets them in again
            await clubs.revoke_invite(club, ids["ann"])
            assert await refused(clubs.join(fresh, ids["cid"])) == ClubCode.BAD_INVITE
            assert (await clubs.club(club, ids["ann"]))["invite_expires_ms"] is None

    run_async(check())


def test_limits_and_look_alikes(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            clock = Clock()
            clubs = clubs_on(repo, clock)
            ids = await people(repo, "ann", "bob", "cid", "dan", "eve", "fay")
            club = (await clubs.create(ids["ann"], "Club", ""))["id"]
            for look_alike in ("club", "\u0421lub", "C l u b", "CLUB\u200b", "Ｃｌｕｂ"):
                code = await refused(clubs.create(ids["bob"], look_alike, ""))
                assert code == ClubCode.CLUB_NAME_TAKEN, look_alike
            await clubs.create(ids["ann"], "Second", "")
            assert await refused(clubs.create(ids["ann"], "Third", "")) == (
                ClubCode.TOO_MANY_CLUBS_OWNED
            )
            assert [c["name"] for c in await clubs.mine(ids["ann"])] == ["Club", "Second"]
            # Requests: two per club, two per account.
            await clubs.request(club, ids["bob"])
            assert await refused(clubs.request(club, ids["bob"])) == ClubCode.CLUB_REQUEST_PENDING
            await clubs.request(club, ids["cid"])
            assert await refused(clubs.request(club, ids["dan"])) == ClubCode.TOO_MANY_CLUB_REQUESTS
            others = [
                (await clubs.create(ids[n], f"Club of {n}", ""))["id"] for n in ("eve", "fay")
            ]
            for other in others:
                await clubs.request(other, ids["dan"])
            assert await refused(clubs.request(club, ids["dan"])) == ClubCode.TOO_MANY_CLUB_REQUESTS
            await clubs.answer(club, ids["ann"], "cid", False)  # refused: the request goes
            assert await refused(clubs.answer(club, ids["ann"], "cid", True)) == (
                ClubCode.NO_CLUB_REQUEST
            )
            # Joined: three clubs an account.
            for other in others:
                await clubs.answer(other, ids[("eve", "fay")[others.index(other)]], "dan", True)
            link = (await clubs.renew_invite(club, ids["ann"]))["invite"]
            await clubs.join(link, ids["dan"])
            third = (await clubs.create(ids["bob"], "Bobs", ""))["id"]
            bob_link = (await clubs.renew_invite(third, ids["bob"]))["invite"]
            assert await refused(clubs.join(bob_link, ids["dan"])) == (
                ClubCode.TOO_MANY_CLUBS_JOINED
            )
            page = await clubs.club(club, ids["ann"])
            assert roles(page) == {"ann": "owner", "dan": "member"}
            assert [r["username"] for r in page["requests"]] == ["bob"]

    run_async(check())


def test_the_member_cap_holds_under_joins_at_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            clubs = clubs_on(repo, Clock())
            names = [f"p{n}" for n in range(10)]
            ids = await people(repo, *names)
            club = (await clubs.create(ids["p0"], "Crowded", ""))["id"]
            link = (await clubs.renew_invite(club, ids["p0"]))["invite"]
            results = await asyncio.gather(
                *(clubs.join(link, ids[n]) for n in names[1:]), return_exceptions=True
            )
            joined = [r for r in results if r == club]
            codes = {r.code for r in results if isinstance(r, ClubRefused)}
            assert len(joined) == LIMITS.members - 1 and codes == {ClubCode.CLUB_FULL}
            page = await clubs.club(club, ids["p0"])
            assert page["member_count"] == len(page["members"]) == LIMITS.members
            rows = sql(database_url, "SELECT count(*) FROM club_members WHERE club_id = :c", c=club)
            assert rows[0][0] == LIMITS.members

    run_async(check())


def test_refusals_change_nothing_and_the_leaderboard_is_the_members(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            clubs = clubs_on(repo, Clock())
            ids = await people(repo, "ann", "bob", "cid", "out")
            club = (await clubs.create(ids["ann"], "Rated", ""))["id"]
            link = (await clubs.renew_invite(club, ids["ann"]))["invite"]
            for name in ("bob", "cid"):
                await clubs.join(link, ids[name])
            await clubs.set_role(club, ids["ann"], "bob", Role.ORGANISER)
            for name, mu, sigma in (("ann", 30.0, 2.0), ("bob", 28.0, 1.0), ("out", 40.0, 1.0)):
                sql(
                    database_url,
                    "INSERT INTO ratings (account_id, players, mu, sigma, ordinal, matches,"
                    " updated_ms) VALUES (:a, 2, :mu, :s, :o, 7, 1)",
                    a=ids[name],
                    mu=mu,
                    s=sigma,
                    o=mu - 3 * sigma,
                )
            before = await clubs.club(club, ids["ann"])
            board = before["leaderboard"]
            assert board["players"] == 2
            assert [(r["username"], r["rating"]) for r in board["rows"]] == [
                ("bob", 25.0),
                ("ann", 24.0),
            ], "members only, best first"
            assert (await clubs.club(club, ids["ann"], 3))["leaderboard"]["rows"] == []
            attempts = [
                clubs.set_role(club, ids["bob"], "cid", Role.ORGANISER),  # organiser: no
                clubs.remove(club, ids["bob"], "ann"),  # organiser removes the owner: no
                clubs.remove(club, ids["cid"], "bob"),  # a member removes: no
                clubs.remove(club, ids["ann"], "out"),  # not in the club
                clubs.close(club, ids["bob"]),
                clubs.renew_invite(club, ids["cid"]),
                clubs.revoke_invite(club, ids["out"]),
                clubs.set_role(club, ids["ann"], "ann", Role.MEMBER),
                clubs.set_role(club, ids["ann"], "nobody", Role.MEMBER),
                clubs.answer(club, ids["cid"], "out", True),
                clubs.club("f" * 16, ids["ann"]),
                clubs.request("f" * 16, ids["out"]),
            ]
            codes = [await refused(a) for a in attempts]
            assert codes == [
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.NOT_CLUB_MEMBER,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.NOT_CLUB_MEMBER,
                ClubCode.CLUB_FORBIDDEN,
                ClubCode.NO_SUCH_CLUB,
                ClubCode.NO_SUCH_CLUB,
            ]
            assert await clubs.club(club, ids["ann"]) == before

    run_async(check())


def test_one_account_at_once_stays_within_its_caps(database_url: str) -> None:
    """Clubs made and requests sent all at once by one account: its caps hold exactly
    (its row is held by each transaction in turn)."""

    async def check() -> None:
        async with open_store(database_url) as repo:
            clubs = clubs_on(repo, Clock())
            names = ["ann", *(f"o{n}" for n in range(5))]
            ids = await people(repo, *names)
            made = await asyncio.gather(
                *(clubs.create(ids["ann"], f"Rush {n}", "") for n in range(5)),
                return_exceptions=True,
            )
            codes = [r.code for r in made if isinstance(r, ServiceError)]
            assert len(made) - len(codes) == LIMITS.owned
            assert set(codes) <= {ClubCode.TOO_MANY_CLUBS_OWNED, "busy"}, codes
            assert len(await clubs.mine(ids["ann"])) == LIMITS.owned
            others = [(await clubs.create(ids[f"o{n}"], f"Other {n}", ""))["id"] for n in range(5)]
            asked = await asyncio.gather(
                *(clubs.request(c, ids["ann"]) for c in others), return_exceptions=True
            )
            assert sum(r is None for r in asked) == LIMITS.requests_per_account
            rows = sql(
                database_url,
                "SELECT count(*) FROM club_requests WHERE account_id = :a",
                a=ids["ann"],
            )
            assert rows[0][0] == LIMITS.requests_per_account

    run_async(check())


def test_a_deleted_account_leaves_its_clubs_and_its_clubs_go_on(database_url: str) -> None:
    """Accounts are scrubbed, not removed, so nothing cascades: the deletion itself takes
    the account out (app/db/club_leaving.py).  A club it owned passes to its earliest
    organiser (before any earlier member), a club left with nobody closes, and its
    member count falls so the cap counts only the living."""

    async def check() -> None:
        async with open_store(database_url) as repo:
            clock = Clock()
            clubs = clubs_on(repo, clock)
            accounts = AccountRows(repo)
            ids = await people(repo, "ann", "bob", "cid", "eve")
            shared = (await clubs.create(ids["ann"], "Shared Club", ""))["id"]
            alone = (await clubs.create(ids["ann"], "Alone Club", ""))["id"]
            link = await clubs.renew_invite(shared, ids["ann"])
            clock.ms += 1
            assert await clubs.join(link["invite"], ids["bob"]) == shared  # member first
            clock.ms += 1
            assert await clubs.join(link["invite"], ids["cid"]) == shared
            await clubs.set_role(shared, ids["ann"], "cid", Role.ORGANISER)
            await clubs.request(shared, ids["eve"])
            before = await clubs.club(shared, ids["bob"])
            assert before["member_count"] == 3 and before["owner"] == "ann"

            await accounts.delete_account(ids["ann"], clock.ms, "deleted player")

            after = await clubs.club(shared, ids["cid"])
            assert after["owner"] == "cid", "the organiser, though bob joined before"
            assert roles(after) == {"cid": "owner", "bob": "member"}
            assert after["member_count"] == 2 and after["closed_ms"] is None
            assert [c["id"] for c in await clubs.mine(ids["cid"])] == [shared]
            await clubs.close(shared, ids["cid"])  # the new owner may act as one
            gone = await clubs.club(alone, ids["bob"])
            assert gone["closed_ms"] == clock.ms and gone["member_count"] == 0
            assert await clubs.mine(ids["ann"]) == []

    run_async(check())
