"""``/ws/tournaments/{id}``: an event's page pushed to whoever watches it (issue 49).

The first message is the event (``{"type": "event", "event": ...}``, the page a
signed-out reader gets from ``GET /api/tournaments/{id}``), then one each time it
changes (app/tournaments/feed.py).  A watcher sends nothing: a few stray messages
are ignored, more close the socket (1008).  Watching counts against the same socket
limits as watching a room (WS_PER_IP, WS_PER_ROOM with the event as the room,
WS_MAX).  An unknown event: an ``error`` ``no_such_tournament`` and close (1008).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.limits.clients import client_key
from app.realtime.connection import CLOSE_POLICY
from app.tournaments.errors import TournamentCode

from .deps import get_services

router = APIRouter()
STRAY_MESSAGES = 10
"""Messages a watcher may send (it has nothing to say) before it is closed."""


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(ws: WebSocket, tournament_id: str) -> None:
    services = get_services(ws)
    guard = services.sockets
    address = client_key(ws.scope, services.settings.ipv6_prefix)
    await ws.accept()
    key = f"tournament:{tournament_id[:32]}"
    refused = guard.admit(address, key)
    if refused is not None:
        services.metrics.refused(refused[0])
        await _refuse(ws, "too_many_connections", refused[1])
        return
    try:
        if (
            len(tournament_id) > 32
            or await services.tournaments.store.snapshot(tournament_id) is None
        ):
            await _refuse(ws, TournamentCode.NO_SUCH_TOURNAMENT, "no such tournament")
            return
        feeds = services.tournaments.feeds
        queue = feeds.watch(tournament_id)
        try:
            await _serve(ws, queue)
        finally:
            feeds.leave(tournament_id, queue)
    finally:
        guard.release(address, key)


async def _serve(ws: WebSocket, queue: asyncio.Queue) -> None:  # type: ignore[type-arg]
    reader = asyncio.create_task(_read(ws))
    try:
        while True:
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                getter.cancel()
                return
            await ws.send_json({"type": "event", "event": getter.result()})
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            await reader


async def _read(ws: WebSocket) -> None:
    """Until the watcher leaves, or sends more than it may."""
    stray = 0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        stray += 1
        if stray > STRAY_MESSAGES:
            await ws.close(CLOSE_POLICY)
            return


async def _refuse(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await ws.send_json({"type": "error", "code": str(code), "message": message})
        await ws.close(CLOSE_POLICY)
