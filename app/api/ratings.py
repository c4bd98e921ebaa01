"""HTTP routes for the ratings (issue 34): the leaderboard per player count, and an
account's profile.  Reads only: a rating changes when a rated match ends
(app/ratings/ratings.py), never through a request."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.ratings.model import BOT_ANCHORS, MAX_PLAYERS, MIN_PLAYERS
from app.ratings.rated_rooms import RatedRefusal

from .deps import ProfilesDep, RatingsDep
from .errors import error
from .rooms import ERRORS

router = APIRouter(prefix="/api", tags=["ratings"])


class LeaderEntry(BaseModel):
    rank: int
    username: str
    rating: float
    """The conservative rating the board ranks by: mu - 3 sigma."""
    mu: float
    sigma: float
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
                matches=r.matches,
            )
            for i, r in enumerate(rows)
        ],
        bots=BOTS,
    )


@router.get("/profiles/{username}", response_model=None, responses=ERRORS)
async def profile(
    profiles: ProfilesDep, username: str = Path(pattern=r"^[A-Za-z0-9_.-]{1,24}$")
) -> dict[str, Any]:
    """An account's profile: games per player count, the mean deal score against the
    even share, sweeps made and conceded, ratings, recent matches with their replays
    (docs/protocol.md, "Profiles and ratings"); 404 for no such account."""
    found = await profiles.profile(username)
    if found is None:
        raise HTTPException(404, "no such player")
    return found


def install(app: FastAPI) -> None:
    """The routes, and the JSON answer of a seat a rated room refuses."""
    app.include_router(router)

    @app.exception_handler(RatedRefusal)
    async def _refused(_: Request, exc: RatedRefusal) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)
