"""Challenges between bots (issue 51): ``POST /api/bot/challenges`` (a bot challenges
an online bot), ``POST /api/bot/challenges/{id}/accept`` and ``.../decline`` (the
opponent), ``DELETE /api/bot/challenges/{id}`` (its maker withdraws it).  The rules
(caps, expiry, who may answer) are app/botplay/service.py's; accepting makes the
room here, with the room service's commands as every room is made: the challenger
in seat 0, the built-in bots asked for, then the opponent; both seats linked to
their accounts, and both streams told the game."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field, StringConstraints

from app.accounts.access_tokens import BOT_PLAY, Bearer
from app.accounts.service import Account, AccountError
from app.botplay.service import NewChallenge
from app.botplay.store import ChallengeRow
from app.core.errors import ServiceError
from app.engine.rules import RuleSet
from app.rooms.domain import commands
from app.rooms.domain.options import RoomOptions
from app.rooms.domain.results import RoomCreated

from .bearer import BAD_TOKEN, INSUFFICIENT_SCOPE
from .deps import ServiceDep, ServicesDep
from .rooms import MakesRoom
from .schemas import Rules, Strict, refusals

router = APIRouter(prefix="/api/bot", tags=["bot play"])

ChallengeId = Path(pattern=r"^[0-9a-f]{24}$", description="the challenge's id")
TOKEN_ERRORS = {
    401: "``bad_token``: no ``Authorization: Bearer`` token (or an unknown one)",
    403: "``insufficient_scope`` (the token lacks ``bot:play``), ``not_a_bot_account``",
    503: "the database is not answering; try again",
}
MAKE_ERRORS = refusals(
    {
        **TOKEN_ERRORS,
        404: "``bot_not_found``: no bot account has this name",
        409: "``bot_offline``: the opponent has no open stream",
        422: "``bad_challenge`` (itself; more built-in bots than free seats), "
        "``bad_request`` (rules)",
        429: "``too_many_challenges``: 5 open, or 1 to this opponent; ``rate_limited``",
    }
)
ANSWER_ERRORS = refusals(
    {
        **TOKEN_ERRORS,
        404: "``challenge_not_found``: no open challenge of this id is yours to answer",
    }
)


ACCEPT_ERRORS = {
    **ANSWER_ERRORS,
    **refusals(
        {
            429: "``rate_limited`` (see Retry-After), or ``too_many_rooms``: as many live "
            "rooms from this address or account as it may have",
        }
    ),
}


class ChallengeBody(Strict):
    """POST /api/bot/challenges."""

    opponent: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The opponent bot's username."""
    players: int = Field(ge=2, le=6)
    rules: Rules = Field(default_factory=Rules)  # type: ignore[valid-type]
    bots: int = Field(default=0, ge=0, le=4)
    """Built-in bots for the seats beside the two challengers (at most players - 2)."""


class ChallengeMade(BaseModel):
    id: str
    expires_ms: int


class ChallengeAccepted(BaseModel):
    id: str
    room_id: str
    code: str


def _bot(request: Request) -> Bearer:
    """The request's ``bot:play`` token (the gate checked it is live)."""
    found = getattr(request.state, "bearer", None)
    if not isinstance(found, Bearer):
        raise AccountError(401, BAD_TOKEN, "a bot sends Authorization: Bearer <token>")
    if not found.may(BOT_PLAY):
        raise AccountError(403, INSUFFICIENT_SCOPE, f"challenges need {BOT_PLAY}")
    return found


@router.post("/challenges", status_code=201, response_model=ChallengeMade, responses=MAKE_ERRORS)
async def make_challenge(
    request: Request, body: ChallengeBody, services: ServicesDep
) -> ChallengeMade:
    """Challenge an online bot to a room of ``players`` seats; it expires in 60 s."""
    rules = RuleSet.from_dict(cast(BaseModel, body.rules).model_dump())  # a made model
    rules.validate_for(body.players)  # RulesError (422) for rules these players cannot play
    asked = NewChallenge(body.opponent, body.players, rules.to_dict(), body.bots)
    row = await services.botplay.challenge(_bot(request), asked)
    return ChallengeMade(id=row.id, expires_ms=row.expires_ms)


@router.post("/challenges/{challenge_id}/accept", response_model=ChallengeAccepted,
             responses=ACCEPT_ERRORS)  # fmt: skip
async def accept_challenge(
    request: Request,
    maker: MakesRoom,
    services: ServicesDep,
    service: ServiceDep,
    challenge_id: str = ChallengeId,
) -> ChallengeAccepted:
    """Accept a challenge addressed to this bot: the room is made with both bots seated
    (the challenger in seat 0) and both streams are told the game.  It is a room made
    by the accepting bot: the rule of every room-making route applies (``MakesRoom``:
    ROOM_CREATE_PER_MINUTE, the live rooms of its address and account)."""
    bot = _bot(request)
    row = await services.botplay.answer(bot, challenge_id, "accepted")
    settings = services.settings
    options = RoomOptions(
        bot_delay=settings.default_bot_delay,
        grace=settings.default_grace,
        deal_pause=settings.default_deal_pause,
        day_seconds=settings.day_seconds,
    )
    plan = commands.NewRoom(
        row.players,
        row.from_name,
        RuleSet.from_dict(row.rules),
        row.bots,
        options,
        creator=maker.address,
        outside_bot=True,  # the challenger's seat: a bot account's (issue 51)
    )
    try:
        made = await service.execute(plan)
        await _seat_both(services, service, row, made)
    except ServiceError:
        await services.botplay.answer(bot, challenge_id, "open", before="accepted")
        raise
    await services.botplay.made_room(row, made.room_id)
    services.botplay.wake(row.from_account)
    services.botplay.wake(row.to_account)
    return ChallengeAccepted(id=row.id, room_id=made.room_id, code=made.code)


async def _seat_both(
    services: ServicesDep, service: ServiceDep, row: ChallengeRow, made: RoomCreated
) -> None:
    """The challenger's seat (the maker's, 0) linked to its account, the opponent
    seated and linked to its."""
    accounts = services.accounts
    challenger = Account(row.from_account, row.from_name, 0, 1)
    await accounts.link_seat(challenger, made.room_id, made.seat, made.token)
    taken = await service.execute(commands.JoinRoom(made.room_id, row.to_name, outside_bot=True))
    opponent = Account(row.to_account, row.to_name, 0, 1)
    await accounts.link_seat(opponent, made.room_id, taken.seat, taken.token)


@router.post("/challenges/{challenge_id}/decline", status_code=204, responses=ANSWER_ERRORS)
async def decline_challenge(
    request: Request, services: ServicesDep, challenge_id: str = ChallengeId
) -> Response:
    """Decline a challenge addressed to this bot."""
    await services.botplay.answer(_bot(request), challenge_id, "declined")
    return Response(status_code=204)


@router.delete("/challenges/{challenge_id}", status_code=204, responses=ANSWER_ERRORS)
async def withdraw_challenge(
    request: Request, services: ServicesDep, challenge_id: str = ChallengeId
) -> Response:
    """Withdraw a challenge this bot made."""
    await services.botplay.answer(_bot(request), challenge_id, "withdrawn")
    return Response(status_code=204)
