"""The admin API (/api/admin/...) and page (/admin), behind the admin token.

Off (404, as if absent) unless ADMIN_TOKEN_HASH is set.  What it shows is this
process's memory (connections, bot load) and the database: every room there,
found by id, code or player name (read through ``DatabaseFacts``, app/services.py,
as this layer imports nothing of the database's).  Closing a room goes through
the room service like any other change, so every connected client learns of it.
"""

from __future__ import annotations

import os
import time
from typing import Annotated, Any, TypedDict

from fastapi import APIRouter, Body, Depends, FastAPI, Path, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from app.limits.admin import AdminGate, AdminRefused
from app.ops.botload import BotLoadJson
from app.ops.live import room_line
from app.ops.room_index import MAX_LIMIT, MAX_QUERY, IndexPage, IndexStatus, RoomQuery, with_memory
from app.resources import static_dir
from app.rooms.domain import commands
from app.rooms.index_types import RoomLine
from app.text import check_text
from app.web.security import page_headers

from .deps import ServiceDep, ServicesDep, get_services
from .errors import error

STARTED = time.time()
DEFAULT_REASON = "closed by the administrator"


class CloseRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    reason: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=200), AfterValidator(check_text)
    ] = ""
    """Shown to the players; stored with the close event (app/text.py)."""


def _gate(request: Request) -> AdminGate:
    return get_services(request).edge.admin_gate


def require_admin(request: Request) -> None:
    gate = _gate(request)
    if not gate.enabled:
        raise AdminRefused(404, "not_found", "Not Found")
    gate.check(request)


Admin = Depends(require_admin)
router = APIRouter(prefix="/api/admin", tags=["admin"], dependencies=[Admin])
page = APIRouter(include_in_schema=False)
RoomId = Path(pattern=r"^[0-9a-f]{32}$", description="the room's id")


class ProcessStats(BaseModel):
    pid: int
    uptime_seconds: float


class BotLoadStats(BaseModel):
    """Bot moves being chosen now and since start, by level (app/ops/botload.py)."""

    thinking: dict[str, int]
    thinking_total: int
    strong_queued: int
    """Strong-bot moves waiting for a worker."""
    moves: dict[str, int]


class Stats(BaseModel):
    process: ProcessStats
    rooms_in_memory: dict[str, int]
    connections: int
    bots: BotLoadStats
    moves_committed: int
    retention_days: int
    database: dict[str, int]
    """Rooms in the database by status, plus ``purged``."""


class ProcessJson(TypedDict):
    pid: int
    uptime_seconds: float


class StatsJson(TypedDict):
    """What ``Stats`` documents, as the route builds it."""

    process: ProcessJson
    rooms_in_memory: dict[str, int]
    connections: int
    bots: BotLoadJson
    moves_committed: int
    retention_days: int
    database: dict[str, int]


@router.get("/stats", response_model=Stats)
async def stats(services: ServicesDep) -> StatsJson:
    """This process (rooms in memory by status, connections, bot load, moves) and the
    database (rooms by status, purged rooms)."""
    service = services.rooms
    rooms = list(service.rooms.values())
    by_status: dict[str, int] = {"waiting": 0, "playing": 0, "finished": 0}
    for rt in rooms:
        by_status[rt.state.status] = by_status.get(rt.state.status, 0) + 1
    return {
        "process": {"pid": os.getpid(), "uptime_seconds": round(time.time() - STARTED, 1)},
        "rooms_in_memory": by_status,
        "connections": sum(rt.hub.connection_count() for rt in rooms),
        "bots": services.edge.bot_load.snapshot(),
        "moves_committed": service.moves_committed,
        "retention_days": services.settings.retention_days,
        "database": await services.database.status_counts(),
    }


@router.get("/rooms", response_model=None)
async def rooms(
    services: ServicesDep,
    q: Annotated[str, Query(max_length=MAX_QUERY)] = "",
    status: Annotated[IndexStatus | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> IndexPage:
    """Every room in the database, newest activity first, a page at a time: ``q`` finds
    a room by the start of its id or code or by a part of a player's name; ``status``
    is waiting, playing, finished (played out) or closed (by an operator).  Each room
    says whether this process holds it in memory, and if so its connections."""
    page = await services.database.rooms(RoomQuery(q.strip(), status, limit, offset))
    with_memory(page["rooms"], services.rooms)
    return page


@router.post("/rooms/{room_id}/close", response_model=None)
async def close_room(
    service: ServiceDep, room_id: str = RoomId, body: Annotated[CloseRoom | None, Body()] = None
) -> RoomLine:
    """End a room for everyone: clients get the final state with ``closed`` set; seats,
    plays and rematches are refused from then on.  409 ``closed`` when it already is."""
    reason = (body.reason if body is not None else "") or DEFAULT_REASON
    await service.execute(commands.CloseRoom(room_id, reason))
    return room_line(await service.runtime(room_id))


@page.get("/admin", dependencies=[])
async def admin_page(request: Request) -> Any:
    """The admin page itself holds no secret: it asks for the token and calls the API.
    It has the game pages' Content-Security-Policy and frame denial (app/web/security.py):
    the page a token is pasted into must not run another site's script or be framed."""
    static = static_dir()
    if not _gate(request).enabled or static is None:
        return error(404, "not_found", "Not Found")
    headers = {"Cache-Control": "no-store", **page_headers(request.headers.get("host"))}
    return FileResponse(static / "admin.html", headers=headers)


def install(app: FastAPI) -> None:
    """The admin routes and page, and the answer of a refused admin token."""

    @app.exception_handler(AdminRefused)
    async def _refused(_: Request, exc: AdminRefused) -> JSONResponse:
        response = error(exc.status, exc.code, exc.message)
        if exc.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="krypkasino admin"'
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    app.include_router(router)
    app.include_router(page)
