"""Every HTTP error is JSON {"code", "message"} with a fitting 4xx status, never a 500 page."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.db.outage import is_outage
from app.engine.errors import EngineError
from app.rooms.errors import RoomPurged, ServiceError
from app.rooms.store import Unavailable

log = logging.getLogger("krypkasino.api")

_STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                 405: "method_not_allowed", 409: "conflict", 413: "too_large",
                 422: "bad_request", 429: "rate_limited"}


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def _describe(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors()[:3]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        msg = str(e.get("msg")).removeprefix("Value error, ")  # our validators' own words
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "invalid request"


def install(app: FastAPI) -> None:
    @app.exception_handler(RoomPurged)
    async def _purged(_: Request, exc: RoomPurged) -> JSONResponse:
        """410 with the dates, so a client can say it in its own language."""
        return JSONResponse({"code": exc.code, "message": exc.message, **exc.details()},
                            status_code=410)

    @app.exception_handler(ServiceError)
    async def _service(_: Request, exc: ServiceError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

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
