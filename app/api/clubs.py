"""HTTP routes of the clubs (issue 49): make one, read its page, the signed-in account's
clubs, the invite link, join requests, roles, leaving, removing, closing.
docs/protocol.md, "Clubs".

Signed-in only: the session cookie (its CSRF header and Origin checked by the gate,
app/api/session_gate.py, as for every route), or a personal access token, which may
read clubs but not change them (403 ``session_required``): a bot's token is for
playing, and a stolen one should not be able to run its owner's clubs.  Members are
named by username in the paths.  Every refusal is ``{code, message}`` with a code of
``ClubCode`` (app/clubs/errors.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.requests import HTTPConnection

from app.accounts.service import Account
from app.clubs.rules import Role
from app.clubs.service import ClubJson, Clubs, InviteJson

from .bearer import SESSION_REQUIRED
from .deps import get_services
from .errors import error
from .schemas import Strict, refusals
from .session import SignedInAccount, bearer_of

router = APIRouter(prefix="/api/clubs", tags=["clubs"])
ClubId = Annotated[str, Path(min_length=1, max_length=32)]
Username = Annotated[str, Path(min_length=1, max_length=64)]
READ_ERRORS = refusals(
    {
        401: "``sign_in_required``",
        404: "``no_such_club``",
        503: "the database is not answering; try again",
    }
)
WRITE_ERRORS = refusals(
    {
        401: "``sign_in_required``",
        403: "``club_forbidden`` (your role does not allow it), ``removed_from_club``, "
        "``session_required`` (a token may only read), ``csrf_failed``, ``bad_origin``",
        404: "``no_such_club``, ``not_club_member``, ``no_club_request``, ``bad_invite``",
        409: "``club_closed``, ``club_name_taken``, ``already_club_member``, "
        "``club_request_pending``, ``owner_must_hand_over``, ``too_many_clubs_owned``, "
        "``too_many_clubs_joined``, ``club_full``, ``too_many_club_requests``",
        422: "``bad_club_name``, ``bad_club_description``, ``bad_request``",
        429: "``club_rate_limited``",
        503: "the database is not answering; try again",
    }
)


def _clubs(conn: HTTPConnection) -> Clubs:
    return get_services(conn).clubs


ClubsDep = Annotated[Clubs, Depends(_clubs)]


class TokenMayNotChange(Exception):
    """403 ``session_required``: a personal access token changing a club."""


async def _changer(request: Request, account: SignedInAccount) -> Account:
    if bearer_of(request) is not None:
        raise TokenMayNotChange()
    return account


Changer = Annotated[Account, Depends(_changer)]


class NewClub(Strict):
    name: str
    """3 to 40 characters of plain text; no two clubs' names look alike."""
    description: str = ""
    """Up to 500 characters of plain text."""


class InviteBody(Strict):
    invite: str
    """The invite link's token (``kkc_...``, the part after ``#`` of its URL)."""


class RoleBody(Strict):
    role: Literal["owner", "organiser", "member"]
    """``owner`` hands ownership over: the owner becomes an organiser."""


class MemberOut(BaseModel):
    username: str
    role: Literal["owner", "organiser", "member"]
    joined_ms: int


class RankedOut(BaseModel):
    username: str
    rating: float
    """The cautious rating (mu - 3 sigma) the list is sorted by, best first."""
    mu: float
    sigma: float
    provisional: bool
    matches: int


class LeaderboardOut(BaseModel):
    players: int
    rows: list[RankedOut]
    """Members with a rating at this player count (docs/ratings.md)."""


class RequestOut(BaseModel):
    username: str
    made_ms: int


class ClubRoomOut(BaseModel):
    room_id: str
    code: str
    status: Literal["waiting", "playing"]
    players: int
    names: list[str | None]
    """Each seat's player; null for a free seat."""
    created_ms: int


class ClubEventOut(BaseModel):
    id: str
    name: str
    format: str
    state: str
    created_ms: int
    finished_ms: int | None
    winners: list[str]
    """Who stands first once the event is finished (ties share it)."""


class ClubOut(BaseModel):
    id: str
    name: str
    description: str
    owner: str | None
    created_ms: int
    closed: bool
    closed_ms: int | None
    member_count: int
    members: list[MemberOut]
    """Owner first, then organisers, then members, by name; at most 200 (see
    ``member_count``)."""
    leaderboard: LeaderboardOut
    rooms: list[ClubRoomOut]
    """The club's open rooms (waiting for players or in play), newest first, at most
    50: for its members (empty for anyone else)."""
    events: list[ClubEventOut]
    """The club's tournaments, newest first, at most 50 (app/api/tournaments.py)."""
    you: Literal["owner", "organiser", "member"] | None
    """The reader's role; null for someone outside the club."""
    requested: bool
    """The reader asked to join and waits for an answer."""
    invite_expires_ms: int | None
    """For the owner and organisers: when the current invite link runs out (null:
    none).  The link itself is shown once, when made."""
    requests: list[RequestOut]
    """For the owner and organisers: the pending join requests, oldest first."""


class MyClubOut(BaseModel):
    id: str
    name: str
    role: Literal["owner", "organiser", "member"] | None
    """The account's role (``mine``); null in the directory."""
    closed: bool
    member_count: int


class MyClubsOut(BaseModel):
    clubs: list[MyClubOut]


class InviteOut(BaseModel):
    invite: str
    url: str
    """The page's path with the token after ``#`` (a fragment never reaches a server
    log); the page posts it to ``POST /api/clubs/join``."""
    expires_ms: int


def _done() -> Response:
    return Response(status_code=204)


@router.post("", status_code=201, response_model=ClubOut, responses=WRITE_ERRORS)
async def create(body: NewClub, clubs: ClubsDep, account: Changer) -> ClubOut:
    """Make a club; the signed-in account is its owner and first member."""
    made = await clubs.create(account.id, body.name, body.description)
    return ClubOut.model_validate({**made, "events": []})


@router.get("", response_model=MyClubsOut, responses=READ_ERRORS)
async def mine(
    clubs: ClubsDep,
    account: SignedInAccount,
    mine: Annotated[bool, Query()] = False,
    q: Annotated[str, Query(max_length=40)] = "",
) -> MyClubsOut:
    """``?mine=1``: the signed-in account's clubs.  Otherwise the directory: open clubs
    whose name holds ``q`` (compared as names are: case, spaces and look-alike letters
    aside), the most members first, at most 50; ``role`` null there."""
    if not mine:
        return MyClubsOut.model_validate(
            {"clubs": [{**c, "role": None, "closed": False} for c in await clubs.directory(q)]}
        )
    return MyClubsOut.model_validate({"clubs": await clubs.mine(account.id)})


@router.post("/join", response_model=ClubOut, responses=WRITE_ERRORS)
async def join(request: Request, body: InviteBody, clubs: ClubsDep, account: Changer) -> ClubOut:
    """Join through an invite link: a member at once.  404 ``bad_invite`` for a link that
    was never made, revoked, renewed or expired."""
    club_id = await clubs.join(body.invite, account.id)
    return await _page(request, club_id, await clubs.club(club_id, account.id))


@router.get("/{club_id}", response_model=ClubOut, responses=READ_ERRORS)
async def club(
    request: Request,
    club_id: ClubId,
    clubs: ClubsDep,
    account: SignedInAccount,
    players: Annotated[int, Query(ge=2, le=6)] = 2,
) -> ClubOut:
    """The club's page: its members and roles, the leaderboard of its members' ratings
    at ``players``, its events, and what the reader may see of its link and requests."""
    return await _page(request, club_id, await clubs.club(club_id, account.id, players))


async def _page(request: Request, club_id: str, found: ClubJson) -> ClubOut:
    """The club's page with its events (the tournaments', above the clubs)."""
    events = await get_services(request).tournaments.of_club(club_id)
    return ClubOut.model_validate({**found, "events": events})


@router.post("/{club_id}/invite", response_model=InviteOut, responses=WRITE_ERRORS)
async def invite(club_id: ClubId, clubs: ClubsDep, account: Changer) -> InviteJson:
    """Make a new invite link (owner and organisers); the one before stops working."""
    return await clubs.renew_invite(club_id, account.id)


@router.delete("/{club_id}/invite", status_code=204, responses=WRITE_ERRORS)
async def revoke(club_id: ClubId, clubs: ClubsDep, account: Changer) -> Response:
    """Revoke the invite link (owner and organisers)."""
    await clubs.revoke_invite(club_id, account.id)
    return _done()


@router.post("/{club_id}/requests", status_code=204, responses=WRITE_ERRORS)
async def ask(club_id: ClubId, clubs: ClubsDep, account: Changer) -> Response:
    """Ask to join; the owner and organisers accept or refuse."""
    await clubs.request(club_id, account.id)
    return _done()


@router.post("/{club_id}/requests/{username}/{verdict}", status_code=204, responses=WRITE_ERRORS)
async def answer(
    club_id: ClubId,
    username: Username,
    verdict: Literal["accept", "refuse"],
    clubs: ClubsDep,
    account: Changer,
) -> Response:
    """Accept (a member at once) or refuse a pending request (owner and organisers)."""
    await clubs.answer(club_id, account.id, username, verdict == "accept")
    return _done()


@router.delete("/{club_id}/members/{username}", status_code=204, responses=WRITE_ERRORS)
async def remove(
    club_id: ClubId, username: Username, clubs: ClubsDep, account: Changer
) -> Response:
    """Leave (one's own name) or remove a member: organisers remove members, the owner
    anyone; the owner leaves only after handing ownership over."""
    await clubs.remove(club_id, account.id, username)
    return _done()


@router.put("/{club_id}/members/{username}", status_code=204, responses=WRITE_ERRORS)
async def set_role(
    club_id: ClubId, username: Username, body: RoleBody, clubs: ClubsDep, account: Changer
) -> Response:
    """Change a member's role (the owner only); ``owner`` hands ownership over."""
    await clubs.set_role(club_id, account.id, username, Role(body.role))
    return _done()


@router.delete("/{club_id}", status_code=204, responses=WRITE_ERRORS)
async def close(club_id: ClubId, clubs: ClubsDep, account: Changer) -> Response:
    """Close the club (the owner): its page stays and says so; nothing can be joined."""
    await clubs.close(club_id, account.id)
    return _done()


def install(app: FastAPI) -> None:
    app.include_router(router)

    @app.exception_handler(TokenMayNotChange)
    async def _token(_: Request, exc: TokenMayNotChange) -> JSONResponse:
        return error(403, SESSION_REQUIRED, "a token may read clubs; change them signed in")


__all__ = ["install", "router"]
