"""HTTP routes for the ratings (issue 34): the leaderboard per player count, an
account's profile, and what rating did to a match.  Reads only: a rating changes when
a rated match ends (app/ratings/ratings.py), never through a request.

``SeenAt`` (issue 46) notes where each signed-in account is seen: after a route has
looked up the request's account, the keyed hash of its client address (an IPv6
client: its IPV6_PREFIX network) and the hashes of the player keys it sends
(``X-Player-Key``), written at most once an hour per process and kept
RATINGS_SHARED_DAYS.  Accounts seen at one of them do not change each other's
ratings (app/ratings/guards.py).  Nothing is kept with RATINGS_SHARED_DAYS 0."""

from __future__ import annotations

import logging
from typing import TypedDict

from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.requests import HTTPConnection
from starlette.types import Message, Receive, Scope, Send

from app.accounts.service import Account
from app.core.asgi import HttpMiddleware
from app.ratings.guards import ADDRESS, KEY, address_hash
from app.ratings.model import BOT_ANCHORS, MAX_PLAYERS, MIN_PLAYERS
from app.ratings.profiles import ProfileJson
from app.ratings.rated_rooms import RatedRefusal
from app.ratings.ratings import MatchResult, SkillJson, skill_json
from app.tournaments.service import PlayedEventJson

from .daily_access import key_hashes
from .deps import ProfilesDep, RatingsDep, client_of, get_services
from .errors import error
from .history import MatchNo
from .rooms import ERRORS, RoomId

log = logging.getLogger("krypkasino.ratings")

router = APIRouter(prefix="/api", tags=["ratings"])


class LeaderEntry(BaseModel):
    rank: int
    username: str
    rating: float
    """The conservative rating the board ranks by: mu - 3 sigma."""
    mu: float
    """The number shown (docs/ratings.md, "What people are shown")."""
    sigma: float
    provisional: bool
    """Still settling: shown with a "?" mark (sigma above PROVISIONAL_SIGMA)."""
    matches: int


class BotAnchor(BaseModel):
    level: str
    rating: float
    mu: float
    sigma: float


class Leaderboard(BaseModel):
    players: int
    min_matches: int
    entries: list[LeaderEntry]
    bots: list[BotAnchor]
    """The bot levels' fixed ratings, the scale's anchors (never updated, never listed)."""


class IgnoredJson(TypedDict):
    seat: int
    why: str


class SeatRatingJson(TypedDict):
    seat: int
    bot_level: str | None
    rank: int
    left: bool
    total: int
    before: SkillJson
    after: SkillJson
    change: float
    ignored: list[IgnoredJson]


class MatchRatingJson(TypedDict):
    """GET .../rating of a rated (or looked at and void) match."""

    room_id: str
    match_no: int
    players: int
    rated: bool
    pending: bool
    seats: list[SeatRatingJson]


class PendingJson(TypedDict):
    """GET .../rating?pending=true of a match not rated yet."""

    room_id: str
    match_no: int
    pending: bool


BOTS = [
    BotAnchor(level=level, rating=round(s.ordinal, 2), mu=s.mu, sigma=s.sigma)
    for level, s in BOT_ANCHORS.items()
]


@router.get("/leaderboard", response_model=Leaderboard, responses=ERRORS)
async def leaderboard(
    ratings: RatingsDep,
    players: int = Query(ge=MIN_PLAYERS, le=MAX_PLAYERS, description="the player count"),
) -> Leaderboard:
    """The best accounts at ``players`` players (422 for a count outside 2..6), ranked by
    mu - 3 sigma; an account needs LEADERBOARD_MIN_MATCHES rated matches there."""
    rows = await ratings.leaderboard(players)
    return Leaderboard(
        players=players,
        min_matches=ratings.min_matches,
        entries=[
            LeaderEntry(
                rank=i + 1,
                username=r.username,
                rating=round(r.skill.ordinal, 2),
                mu=round(r.skill.mu, 3),
                sigma=round(r.skill.sigma, 3),
                provisional=r.skill.provisional,
                matches=r.matches,
            )
            for i, r in enumerate(rows)
        ],
        bots=BOTS,
    )


@router.get("/profiles/{username}", response_model=None, responses=ERRORS)
async def profile(
    request: Request,
    profiles: ProfilesDep,
    username: str = Path(pattern=r"^[A-Za-z0-9_.-]{1,24}$"),
) -> ProfileWithEvents:
    """An account's profile: games per player count, the mean deal score against the
    even share, sweeps made and conceded, ratings, recent matches with their replays,
    the tournaments entered with the place in each finished one (docs/protocol.md,
    "Profiles and ratings"); 404 for no such account."""
    found = await profiles.profile(username)
    if found is None:
        raise HTTPException(404, "no such player")
    events = await get_services(request).tournaments.of_player(username)
    return {**found, "events": events}


class ProfileWithEvents(ProfileJson):
    events: list[PlayedEventJson]


def result_json(found: MatchResult) -> MatchRatingJson:
    """A match's rating as GET .../rating answers it (no account ids: the room's seats
    name their players)."""
    return {
        "room_id": found.room_id,
        "match_no": found.match_no,
        "players": found.players,
        "rated": not found.void,
        "pending": False,
        "seats": [
            {
                "seat": c.seat,
                "bot_level": c.bot_level,
                "rank": c.rank,
                "left": c.left,
                "total": c.total,
                "before": skill_json(c.before),
                "after": skill_json(c.after),
                "change": round(c.after.mu - c.before.mu, 2),
                "ignored": [{"seat": seat, "why": why} for seat, why in c.apart],
            }
            for c in found.seats
        ],
    }


@router.get("/rooms/{room_id}/matches/{match_no}/rating", response_model=None, responses=ERRORS)
async def match_rating(
    ratings: RatingsDep,
    room_id: str = RoomId,
    match_no: int = MatchNo,
    pending: bool = Query(False, description="answer a match not rated yet with 200"),
) -> MatchRatingJson | PendingJson:
    """What a rated match did to each seat's rating: rank (0 best; whoever left is
    last), rating before and after, and ``ignored``: the seats that seat's rating left
    out, with why (``shared``: the two accounts were seen at one address or with one
    player key lately; ``left``: that seat left, and nobody gains from a leaver).
    ``rated`` is false for a match looked at and not rated.  404 while it is not
    rated (or for a room that is not rated); with ``pending=true`` instead 200
    ``{"room_id", "match_no", "pending": true}``, so that the match's result can wait
    for its rating without a failed request (issue 47: it is written just after the
    match's last play is committed).  Each seat's ``change`` is what its shown rating
    (``mu``) moved."""
    found = await ratings.match_result(room_id, match_no)
    if found is None:
        if pending:
            return {"room_id": room_id, "match_no": match_no, "pending": True}
        raise HTTPException(404, "no rating of that match")
    return result_json(found)


class SeenAt(HttpMiddleware):
    """ASGI middleware: when a route looked up a signed-in account (``request.state``),
    note where it was seen before the response starts (``Ratings.seen``).  A failure
    to note it is logged, never the request's."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = scope.setdefault("state", {})  # shared with the route's request.state

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                account = state.get("account") if isinstance(state, dict) else None
                if isinstance(account, Account):
                    await _note(scope, account)
            await send(message)

        await self.app(scope, receive, sending)


async def _note(scope: Scope, account: Account) -> None:
    conn = HTTPConnection(scope)
    try:
        services = get_services(conn)
        if not services.ratings.shared_ms:
            return
        secret = await services.accounts.secret()
        seen = [(ADDRESS, address_hash(secret, client_of(conn)))]
        seen += [(KEY, h) for h in key_hashes(conn.headers.get("x-player-key"))]
        await services.ratings.seen(account.id, seen)
    except Exception:  # noting is no part of the request: it must not fail it
        log.warning("could not note where an account was seen", exc_info=True)


def install(app: FastAPI) -> None:
    """The routes, the JSON answer of a seat a rated room refuses, and ``SeenAt``."""
    app.include_router(router)
    app.add_middleware(SeenAt)

    @app.exception_handler(RatedRefusal)
    async def _refused(_: Request, exc: RatedRefusal) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)
