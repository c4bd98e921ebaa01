"""HTTP routes of the tournaments (issue 49): make an event, read its page (schedule,
tables, standings), register and withdraw, start or cancel it, export its results.
docs/protocol.md, "Tournaments".

Reading is open to anyone (an event's page is public, as its tables' rooms are);
everything that changes an event is for a signed-in person with the session cookie
(a personal access token may read, not change: 403 ``session_required``; a bot
account is refused).  Every refusal is ``{code, message}`` with a code of
``TournamentCode`` (app/tournaments/errors.py).  What a duplicate board holds is
sealed until every table has played it (app/tournaments/page.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from app.accounts.service import Account
from app.engine.rules import RuleValues
from app.tournaments.page import EventJson, page, results_csv
from app.tournaments.plan import (
    BOARDS_MAX,
    CAP_MAX,
    MINUTES_MAX,
    MINUTES_MIN,
    ROUND_MINUTES_MAX,
    ROUNDS_MAX,
    EventPlan,
)
from app.tournaments.service import Person, Tournaments

from .clubs import Changer
from .deps import get_services
from .schemas import Rules, Strict, refusals
from .session import MaybeAccount

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
EventId = Annotated[str, Path(min_length=1, max_length=32)]
READ_ERRORS = refusals(
    {404: "``no_such_tournament``", 503: "the database is not answering; try again"}
)
WRITE_ERRORS = refusals(
    {
        401: "``sign_in_required``",
        403: "``tournament_forbidden`` (not its organiser; a bot account), ``club_event`` "
        "(a club's members only), ``session_required`` (a token may only read), "
        "``csrf_failed``, ``bad_origin``",
        404: "``no_such_tournament``, ``not_registered``",
        409: "``not_registering``, ``already_registered``, ``tournament_full``, "
        "``too_few_entrants``, ``too_many_tournaments``",
        422: "``bad_tournament`` (the message says which field), ``bad_request``",
        429: "``tournament_rate_limited``",
        503: "the database is not answering; try again",
    }
)


def _tournaments(conn: HTTPConnection) -> Tournaments:
    return get_services(conn).tournaments


TournamentsDep = Annotated[Tournaments, Depends(_tournaments)]


def _person(account: Account) -> Person:
    return Person(account.id, account.username, account.bot)


class NewTournament(Strict):
    name: Annotated[str, Field(max_length=200)]
    """3 to 60 characters of plain text."""
    format: Literal["swiss", "duplicate", "arena"]
    """``swiss``: rounds seated by the standings; ``duplicate``: every table plays the
    same boards, each result compared with everyone who held the same cards;
    ``arena``: for ``minutes``, whoever finishes a table is seated again with others
    waiting, closest in score."""
    players: Annotated[int, Field(ge=2, le=6)]
    """Seats at each table (bots fill what the field does not)."""
    rules: Rules = Field(default_factory=Rules)  # type: ignore[valid-type]
    rounds: Annotated[int, Field(ge=1, le=ROUNDS_MAX)] = 3
    round_minutes: Annotated[int, Field(ge=MINUTES_MIN, le=ROUND_MINUTES_MAX)] | None = None
    """Swiss: rounds at set times, this many minutes apart from the start (a round
    never starts before the one before has finished); null: each round as soon as
    the one before finishes."""
    boards: Annotated[int, Field(ge=1, le=BOARDS_MAX)] = 2
    minutes: Annotated[int, Field(ge=MINUTES_MIN, le=MINUTES_MAX)] = 30
    scoring: Literal["matchpoints", "difference"] = "matchpoints"
    bot_level: Literal["random", "greedy", "strong"] = "greedy"
    pace: Literal["live", "correspondence"] = "live"
    turn_clock: Annotated[float, Field(ge=10, le=600)] | None = 60.0
    days_per_move: Literal[1, 2, 3, 5, 7] | None = None
    rated: bool = False
    """Each table's match changes its players' ratings, as a rated room's does."""
    entry: Literal["open", "club", "invite"] = "open"
    invited: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=64)]], Field(max_length=CAP_MAX)
    ] = []
    """``invite``: the usernames that may register (any case)."""
    cap: Annotated[int, Field(ge=2, le=CAP_MAX)] = 32
    club_id: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    starts_ms: int | None = None
    """When the server starts it by itself (Unix ms, within a year); null: when its
    organiser does."""


class Made(BaseModel):
    id: str


class SeatOut(BaseModel):
    seat: int
    username: str | None
    bot: bool
    total: int | None = Field(description="the seat's match total, once it may be seen")
    left: bool = Field(description="a stand-in bot finished the match for this person")


class TableOut(BaseModel):
    stage: int = Field(description="the round (Swiss) or board (duplicate)")
    table: int
    room_id: str | None
    done: bool
    seats: list[SeatOut]


class BoardScoreOut(BaseModel):
    seat: int
    table: int
    username: str | None = Field(description="null for a bot's seat")
    total: int
    matchpoints: float = Field(description="one for each other holder of the cards beaten")
    difference: float = Field(description="the other holders' mean total minus this one")


class BoardOut(BaseModel):
    board: int
    seed_hash: str
    complete: bool
    seed: str | None = Field(description="revealed once every table has played the board")
    field: list[BoardScoreOut] = Field(
        description="once complete: each seat's result against the others who held its cards"
    )


class StandingOut(BaseModel):
    place: int
    username: str
    score: float
    tiebreak: float
    played: int


class EntrantOut(BaseModel):
    username: str
    withdrawn: bool


class YouOut(BaseModel):
    registered: bool
    organiser: bool
    room_id: str | None = Field(description="your table's room while you have one to play")


class PlanOut(BaseModel):
    format: str
    players: int
    rules: RuleValues
    rounds: int
    boards: int
    minutes: int
    scoring: str
    bot_level: str
    pace: str
    turn_clock: float | None
    days_per_move: int | None
    rated: bool
    entry: str
    invited: list[str]
    cap: int
    round_minutes: int | None


class TournamentOut(BaseModel):
    id: str
    name: str
    format: str
    state: str
    club_id: str | None
    organiser: str
    plan: PlanOut
    stage: int
    created_ms: int
    starts_ms: int | None
    started_ms: int | None
    finished_ms: int | None
    ends_ms: int | None = Field(description="an arena: when it stops seating tables")
    next_round_ms: int | None = Field(
        description="a Swiss event with rounds at set times: when its next round starts"
    )
    entrants: list[EntrantOut]
    boards: list[BoardOut]
    tables: list[TableOut]
    standings: list[StandingOut]
    you: YouOut


@router.post("", status_code=201, response_model=Made, responses=WRITE_ERRORS)
async def create(body: NewTournament, tournaments: TournamentsDep, account: Changer) -> Made:
    """Make an event (registering); for a club's, its owner or an organiser."""
    plan = EventPlan.from_json(body.model_dump(exclude={"name", "club_id", "starts_ms"}))
    made = await tournaments.create(_person(account), body.name, plan, body.club_id, body.starts_ms)
    return Made(id=made)


@router.get("/{tournament_id}", response_model=TournamentOut, responses=READ_ERRORS)
async def read(
    tournament_id: EventId, tournaments: TournamentsDep, account: MaybeAccount
) -> EventJson:
    """The event: its plan, entrants, boards (a seed only once its board is complete),
    tables with their rooms, results as they may be seen, and the standings."""
    snap = await tournaments.snapshot(tournament_id)
    return page(snap, None if account is None else account.id)


@router.get("/{tournament_id}/results.csv", response_class=Response, responses=READ_ERRORS)
async def export_csv(tournament_id: EventId, tournaments: TournamentsDep) -> Response:
    """The standings and every seat's total that may be seen, as CSV."""
    snap = await tournaments.snapshot(tournament_id)
    return Response(
        results_csv(snap),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="tournament-{snap.event.id}.csv"'},
    )


@router.post(
    "/{tournament_id}/registrations",
    status_code=204,
    response_class=Response,
    responses=WRITE_ERRORS,
)
async def register(
    tournament_id: EventId, tournaments: TournamentsDep, account: Changer
) -> Response:
    """Register the signed-in person (a Swiss event takes entrants until its last round)."""
    await tournaments.register(tournament_id, _person(account))
    return Response(status_code=204)


@router.delete(
    "/{tournament_id}/registrations",
    status_code=204,
    response_class=Response,
    responses=WRITE_ERRORS,
)
async def withdraw(
    tournament_id: EventId, tournaments: TournamentsDep, account: Changer
) -> Response:
    """Withdraw: before the start the entry goes; after it, the entrant is seated no
    more (a table they sit at is played out by the stand-in) and their results stand."""
    await tournaments.withdraw(tournament_id, _person(account))
    return Response(status_code=204)


@router.post(
    "/{tournament_id}/start", status_code=204, response_class=Response, responses=WRITE_ERRORS
)
async def start(tournament_id: EventId, tournaments: TournamentsDep, account: Changer) -> Response:
    """Start the event now (its organiser): the first tables are seated."""
    await tournaments.start(tournament_id, _person(account))
    return Response(status_code=204)


@router.post(
    "/{tournament_id}/end", status_code=204, response_class=Response, responses=WRITE_ERRORS
)
async def end(tournament_id: EventId, tournaments: TournamentsDep, account: Changer) -> Response:
    """End an arena early (its organiser): no more tables are seated; those in play
    finish and count."""
    await tournaments.end_arena(tournament_id, _person(account))
    return Response(status_code=204)


@router.post(
    "/{tournament_id}/cancel", status_code=204, response_class=Response, responses=WRITE_ERRORS
)
async def cancel(tournament_id: EventId, tournaments: TournamentsDep, account: Changer) -> Response:
    """Cancel an event that has not started (its organiser)."""
    await tournaments.cancel(tournament_id, _person(account))
    return Response(status_code=204)
