"""Every HTTP error is JSON {"code", "message"} with a fitting 4xx status, never a 500 page.

The room service refuses with a domain code and no status (``app/rooms/errors.py``);
this module alone decides what each code looks like on the wire: the HTTP status
every route answers with, and the code an HTTP body or a WebSocket ``error``
carries (the same as the domain code except where two situations share one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.engine.errors import EngineError, MoveError
from app.rooms.domain.errors import ErrorCode, RoomPurged, ServiceError
from app.rooms.store import Unavailable
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


STATUS_OF: dict[str, int] = {
    ErrorCode.BAD_REQUEST: 422,
    ErrorCode.BAD_MESSAGE: 422,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNAUTHORIZED: 403,
    ErrorCode.ROOM_FULL: 409,
    ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.DEAL_OVER: 409,
    ErrorCode.NOT_FINISHED: 409,
    ErrorCode.NO_REMATCH_OFFER: 409,
    ErrorCode.NO_REMATCH: 403,
    ErrorCode.CLOSED: 409,
    ErrorCode.PURGED: 410,
    ErrorCode.TOO_MANY_ROOMS: 429,
    ErrorCode.SERVER_FULL: 503,
    ErrorCode.TRANSFER_USED: 410,
    ErrorCode.TRANSFER_EXPIRED: 410,
    ErrorCode.DEAL_NOT_OVER: 404,
    ErrorCode.REVIEW_RUNNING: 409,
    ErrorCode.NO_REVIEW: 409,
    ErrorCode.NOT_DRIVER: 409,
    ErrorCode.NOT_IN_REVIEW: 404,
    ErrorCode.NO_BRANCH: 409,
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BUSY: 503,
    ErrorCode.INTERNAL: 500,
    ErrorCode.NOT_HOST: 403,
    ErrorCode.CHAT_RATE_LIMITED: 429,
    ErrorCode.REACTION_RATE_LIMITED: 429,
    ErrorCode.NO_ASSIST: 403,
    ErrorCode.TAKEBACK_OFF: 403,
    ErrorCode.NOTHING_TO_TAKE_BACK: 409,
    ErrorCode.NAME_RESERVED: 422,
    ErrorCode.ALREADY_QUEUED: 409,
    ErrorCode.ALREADY_MATCHED: 409,
    ErrorCode.NOT_CORRESPONDENCE: 409,
    ErrorCode.NO_VACATION_LEFT: 409,
    ErrorCode.ALREADY_PLAYED: 409,
    ErrorCode.DAILY_PRIVATE: 403,
}
"""The HTTP status of each domain code (tests/api/test_errors.py: every one has one)."""
MOVE_REFUSED = 409
"""The status of a move the rules refuse: its code is the engine's (FORMAT.md)."""
WIRE_CODE: dict[str, str] = {ErrorCode.SERVER_FULL: ErrorCode.TOO_MANY_ROOMS}
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
