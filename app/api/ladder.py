"""HTTP routes of the bot ladder (issue 51): the standings with their 95% intervals,
the published packs with every result (enough to recompute the standings), and one
pack with every deal's record.  Nothing unfinished is served.
``POST /api/admin/ladder/run`` (the admin token: under /api/admin/, as every admin
route, so the bearer of personal access tokens does not read it) has the server
play packs now: an outside bot's packs are played in the server's rooms, which
``krypkasino ladder run`` has none of.  docs/protocol.md, "Bot ladder"."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, Field, StringConstraints
from starlette.requests import HTTPConnection

from app.core.errors import ErrorCode, ServiceError
from app.ladder.entrants import level_entrants
from app.ladder.published import LadderJson, PackDealsJson, PacksJson
from app.ladder.schedule import LadderConfig
from app.ladder.service import MAX_PAGE, Ladder

from .admin import Admin
from .deps import get_services
from .schemas import Strict, refusals

router = APIRouter(prefix="/api/ladder", tags=["ladder"])

MAX_ID = 2**53
"""Pack ids above this are refused (422) rather than sent to the database."""
ERRORS = refusals({404: None, 422: None, 503: "the database is not answering; try again"})
RuleValue = bool | int | None


def _ladder(conn: HTTPConnection) -> Ladder:
    return get_services(conn).ladder


LadderDep = Annotated[Ladder, Depends(_ladder)]


class Standing(BaseModel):
    entrant: str
    """A bot level (``strong``), or ``outside:<account id>``."""
    kind: Literal["level", "outside"]
    packs: int
    deals: int
    """Deals it played (a seat in a deal each)."""
    mean: float
    """Its mean deal score (lower is better)."""
    relative_mean: float
    """Its mean score minus its table's mean on the same deals: what it is ranked by."""
    low: float | None
    """The 95% interval of ``relative_mean`` (Student t over per-pack means); null
    under two packs."""
    high: float | None
    rating: float | None
    """On the anchors' scale: points a deal against the levels' average, lower better;
    comparable between bots that met different tables.  A level's is fixed by the
    levels' own packs; null until those fix it (docs/bots.md, "Ratings")."""
    rating_low: float | None
    """An outside bot's rating's 95% interval (null for a level, or under two packs)."""
    rating_high: float | None


class Standings(BaseModel):
    players: int
    rules: dict[str, RuleValue]
    packs: int
    """Finished packs counted: every one of this table size and these rules."""
    standings: list[Standing]
    updated_ms: int | None


class EntrantAt(BaseModel):
    entrant: str
    kind: Literal["level", "outside"]


class Result(BaseModel):
    deal: int
    seat: int
    entrant: str
    score: int


class Pack(BaseModel):
    id: int
    seed: str
    """The deals are ``shuffled_pack(seed)`` dealt by seat 0 (docs/fairness.md)."""
    players: int
    rules: dict[str, RuleValue]
    made_ms: int
    finished_ms: int
    entrants: list[EntrantAt]
    """The table by position: position i sits at seat (i + deal) mod players."""
    seatings: list[list[str]]
    results: list[Result]


class Packs(BaseModel):
    packs: list[Pack]
    next_after: int | None
    """``after`` for the next page; null on the last."""


class Move(BaseModel):
    card: str
    take: list[str]
    by: Literal["clock", "standin"] | None = Field(default=None, exclude_if=lambda v: v is None)
    """Set when the server played it for the seat (its clock, or the stand-in after
    the seat's grace): an outside bot's move it did not make (absent otherwise)."""


class Score(BaseModel):
    seat: int
    card_points: int
    sweeps: int
    double_sweeps: int
    sweeps_conceded: int
    double_sweeps_conceded: int
    bordstabbe: int
    sweeps_made_points: int
    sweeps_conceded_points: int
    sweep_transfer: int
    total: int


class Deal(BaseModel):
    """A deal as a scenario of FORMAT.md (``krypkasino scenario`` replays it)."""

    name: str
    rules: dict[str, RuleValue]
    players: int
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: list[str]
    moves: list[Move]
    deal: int
    seats: list[str]
    scores: list[Score]
    totals: list[int]
    seed: str


class PackDeals(Pack):
    deals: list[Deal]


@router.get("", response_model=Standings, responses=ERRORS)
async def standings(ladder: LadderDep) -> LadderJson:
    """The standings over every finished pack of the ladder's table size and rules,
    best (lowest relative mean) first."""
    return await ladder.standings()


@router.get("/packs", response_model=Packs, responses=ERRORS)
async def packs(
    ladder: LadderDep,
    after: int = Query(0, ge=0, le=MAX_ID, description="list packs with ids above this"),
    limit: int = Query(20, ge=1, le=MAX_PAGE, description="packs at most"),
) -> PacksJson:
    """Finished packs by id, each with its seed, table, seatings and every seat's score
    in every deal: what the standings are computed from."""
    found = await ladder.packs(after, limit)
    return {"packs": found, "next_after": found[-1]["id"] if len(found) == limit else None}


@router.get("/packs/{pack_id}", response_model=PackDeals, responses=ERRORS)
async def pack(ladder: LadderDep, pack_id: int = Path(ge=1, le=MAX_ID)) -> PackDealsJson:
    """A finished pack with every deal's record (404 ``not_found`` for any other id)."""
    return await ladder.pack(pack_id)


MAX_RUN = 100
"""Packs one ``POST /api/ladder/run`` asks for at most."""
RUN_ERRORS = refusals(
    {401: "``unauthorized``: no or a wrong admin token", 404: "the admin API is off",
     422: "``bad_request``: bad packs or entrants"}
)  # fmt: skip


class RunLadder(Strict):
    """POST /api/admin/ladder/run."""

    packs: int = Field(ge=1, le=MAX_RUN)
    entrants: Annotated[str, StringConstraints(min_length=1, max_length=400)] | None = None
    """As LADDER_ENTRANTS (``random,greedy,outside:<bot name or id>``); the ladder's
    own when left out.  Its table size and rules are the ladder's."""


class RunStarted(BaseModel):
    started: bool
    """False: a run asked for earlier is still playing (nothing was started)."""
    packs: int
    entrants: list[str]
    """As asked (an outside bot by the name given; its packs name it by account id)."""


admin_router = APIRouter(prefix="/api/admin/ladder", tags=["admin"], dependencies=[Admin])


@admin_router.post("/run", status_code=202, response_model=RunStarted, responses=RUN_ERRORS)
async def run(ladder: LadderDep, body: RunLadder) -> RunStarted:
    """Play ``packs`` packs now, in the background (admin token): a pack with an outside
    bot in this server's rooms, while the bot's stream is open.  Watch
    ``GET /api/ladder/packs`` for them."""
    config = ladder.config
    if body.entrants is not None:
        try:
            config = LadderConfig(config.players, config.rules, level_entrants(body.entrants))
        except ValueError as exc:
            raise ServiceError(ErrorCode.BAD_REQUEST, str(exc)) from exc
    started = ladder.run_soon(body.packs, config)
    return RunStarted(started=started, packs=body.packs, entrants=[e.id for e in config.entrants])
