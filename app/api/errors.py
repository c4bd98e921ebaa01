"""Every HTTP error is JSON {"code", "message"} with a fitting 4xx status, never a 500 page.

Every service refuses with a domain code and no status (``app/core/errors.py``, and
each feature's own ``errors`` module); this module alone decides what each code looks
like on the wire: the HTTP status every route answers with, and the code an HTTP body
or a WebSocket ``error`` carries (the same as the domain code except where two
situations share one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from enum import StrEnum

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.clubs.errors import ClubCode
from app.core.errors import ErrorCode, ServiceError, Unavailable
from app.daily.errors import DailyCode
from app.engine.errors import EngineError, MoveError
from app.pairing.errors import PairingCode
from app.players.errors import PlayerCode
from app.review.errors import ReviewCode
from app.rooms.domain.errors import RoomCode, RoomPurged
from app.social.errors import SocialCode
from app.tournaments.errors import TournamentCode
from app.web.http import json_error

log = logging.getLogger("krypkasino.api")

_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "bad_request",
    429: "rate_limited",
}


CODES: tuple[type[StrEnum], ...] = (
    ErrorCode,
    RoomCode,
    PairingCode,
    DailyCode,
    ReviewCode,
    SocialCode,
    PlayerCode,
    ClubCode,
    TournamentCode,
)
"""Every package's refusal codes: the shared ones (app/core/errors.py) and each
feature's own.  A feature that adds an enum of codes adds it here (tests/api/
test_errors.py finds every ``StrEnum`` of an ``errors`` module in app/ and fails on
one missing from this tuple, and on a code without a status)."""

_STATUS: dict[StrEnum, int] = {
    ErrorCode.BAD_REQUEST: 422,
    ErrorCode.BAD_MESSAGE: 422,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNAUTHORIZED: 403,
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BUSY: 503,
    ErrorCode.INTERNAL: 500,
    ErrorCode.NAME_RESERVED: 422,
    ErrorCode.DEAL_NOT_OVER: 404,
    RoomCode.ROOM_FULL: 409,
    RoomCode.NOT_YOUR_TURN: 409,
    RoomCode.DEAL_OVER: 409,
    RoomCode.NOT_FINISHED: 409,
    RoomCode.NO_REMATCH_OFFER: 409,
    RoomCode.NO_REMATCH: 403,
    RoomCode.CLOSED: 409,
    RoomCode.PURGED: 410,
    RoomCode.TOO_MANY_ROOMS: 429,
    RoomCode.SERVER_FULL: 503,
    RoomCode.NOT_HOST: 403,
    RoomCode.NO_ASSIST: 403,
    RoomCode.TAKEBACK_OFF: 403,
    RoomCode.NOTHING_TO_TAKE_BACK: 409,
    RoomCode.NOT_CORRESPONDENCE: 409,
    RoomCode.NO_VACATION_LEFT: 409,
    PairingCode.ALREADY_QUEUED: 409,
    PairingCode.ALREADY_MATCHED: 409,
    DailyCode.ALREADY_PLAYED: 409,
    DailyCode.DAILY_PRIVATE: 403,
    ReviewCode.REVIEW_RUNNING: 409,
    ReviewCode.NO_REVIEW: 409,
    ReviewCode.NOT_DRIVER: 409,
    ReviewCode.NOT_IN_REVIEW: 404,
    ReviewCode.NO_BRANCH: 409,
    SocialCode.CHAT_RATE_LIMITED: 429,
    SocialCode.REACTION_RATE_LIMITED: 429,
    PlayerCode.TRANSFER_USED: 410,
    PlayerCode.TRANSFER_EXPIRED: 410,
    ClubCode.BAD_CLUB_NAME: 422,
    ClubCode.BAD_CLUB_DESCRIPTION: 422,
    ClubCode.CLUB_NAME_TAKEN: 409,
    ClubCode.NO_SUCH_CLUB: 404,
    ClubCode.CLUB_CLOSED: 409,
    ClubCode.NOT_CLUB_MEMBER: 404,
    ClubCode.NO_CLUB_REQUEST: 404,
    ClubCode.CLUB_FORBIDDEN: 403,
    ClubCode.ALREADY_CLUB_MEMBER: 409,
    ClubCode.CLUB_REQUEST_PENDING: 409,
    ClubCode.BAD_INVITE: 404,
    ClubCode.REMOVED_FROM_CLUB: 403,
    ClubCode.OWNER_MUST_HAND_OVER: 409,
    ClubCode.TOO_MANY_CLUBS_OWNED: 409,
    ClubCode.TOO_MANY_CLUBS_JOINED: 409,
    ClubCode.CLUB_FULL: 409,
    ClubCode.TOO_MANY_CLUB_REQUESTS: 409,
    ClubCode.CLUB_RATE_LIMITED: 429,
    ClubCode.CLUB_MEMBERS_ONLY: 403,
    TournamentCode.BAD_TOURNAMENT: 422,
    TournamentCode.NO_SUCH_TOURNAMENT: 404,
    TournamentCode.TOURNAMENT_FORBIDDEN: 403,
    TournamentCode.NOT_REGISTERING: 409,
    TournamentCode.ALREADY_REGISTERED: 409,
    TournamentCode.NOT_REGISTERED: 404,
    TournamentCode.TOURNAMENT_FULL: 409,
    TournamentCode.CLUB_EVENT: 403,
    TournamentCode.NOT_INVITED: 403,
    TournamentCode.TOO_MANY_ENTRIES: 409,
    TournamentCode.TOO_FEW_ENTRANTS: 409,
    TournamentCode.TOO_MANY_TOURNAMENTS: 409,
    TournamentCode.BOARD_SEALED: 403,
    TournamentCode.TOURNAMENT_RATE_LIMITED: 429,
}


def status_table(codes: tuple[type[StrEnum], ...], status: dict[StrEnum, int]) -> dict[str, int]:
    """The status of each code, by its wire string; refuses (at import) a code of
    ``codes`` with no status, a status for a code of no enum listed, and two enums
    that share a string (the wire could not tell them apart)."""
    table: dict[str, int] = {}
    listed: set[StrEnum] = set()
    for enum in codes:
        for code in enum:
            if code not in status:
                raise LookupError(f"no HTTP status for {enum.__name__}.{code.name}")
            if code.value in table:
                raise ValueError(f"the code {code.value!r} is defined twice")
            table[code.value] = status[code]
            listed.add(code)
    extra = set(status) - listed
    if extra:
        raise LookupError(f"statuses for codes of no listed enum: {sorted(extra)}")
    return table


STATUS_OF: dict[str, int] = status_table(CODES, _STATUS)
"""The HTTP status of each domain code (tests/api/test_errors.py: every one has one)."""
MOVE_REFUSED = 409
"""The status of a move the rules refuse: its code is the engine's (FORMAT.md)."""
WIRE_CODE: dict[str, str] = {RoomCode.SERVER_FULL: RoomCode.TOO_MANY_ROOMS}
"""Domain codes shown as another code: clients tell "full" apart by the status only."""


def move_error_codes() -> frozenset[str]:
    """The codes of every move error the engine defines (passed through the service)."""
    found: set[str] = set()
    todo: list[type[MoveError]] = [MoveError]
    while todo:
        cls = todo.pop()
        found.add(cls.code)
        todo.extend(cls.__subclasses__())
    return frozenset(found)


_MOVE_CODES = move_error_codes()


def http_status(exc: ServiceError) -> int:
    """The status every HTTP route answers a refusal with."""
    status = STATUS_OF.get(exc.code)
    if status is not None:
        return status
    if exc.code in _MOVE_CODES:
        return MOVE_REFUSED
    log.error("no HTTP status for a service error code", extra={"code": exc.code})
    return 400


def wire_code(exc: ServiceError) -> str:
    """The code a client sees for a refusal (HTTP body and WebSocket ``error``)."""
    return str(WIRE_CODE.get(exc.code, exc.code))


def error(status: int, code: str, message: str) -> JSONResponse:
    """A refusal's response: ``{"code", "message"}`` with its status."""
    return json_error(status, code, message)


def _describe(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors()[:3]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        msg = str(e.get("msg")).removeprefix("Value error, ")  # our validators' own words
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "invalid request"


def install(app: FastAPI, is_outage: Callable[[BaseException], bool]) -> None:
    """The JSON answer of every error; ``is_outage`` tells the exceptions that mean the
    database is away (answered 503 ``unavailable``: the database layer knows its
    drivers' errors, this layer only their meaning)."""

    @app.exception_handler(RoomPurged)
    async def _purged(_: Request, exc: RoomPurged) -> JSONResponse:
        """410 with the dates, so a client can say it in its own language."""
        return JSONResponse(
            {"code": wire_code(exc), "message": exc.message, **exc.details()},
            status_code=http_status(exc),
        )

    @app.exception_handler(ServiceError)
    async def _service(_: Request, exc: ServiceError) -> JSONResponse:
        return error(http_status(exc), wire_code(exc), exc.message)

    @app.exception_handler(EngineError)
    async def _engine(_: Request, exc: EngineError) -> JSONResponse:
        return error(422, "bad_request", str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, "bad_request", _describe(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        return error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, Unavailable) or is_outage(exc):
            log.warning("database unavailable", extra={"error": type(exc).__name__})
            return error(503, "unavailable", "the database is not answering; try again")
        log.exception("unexpected error")
        return error(500, "internal", "internal error")
