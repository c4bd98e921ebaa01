"""Closing a room from the command line: through the running server's admin API,
or straight through the repository when no server is asked.

Through the server (``--server URL`` with ADMIN_TOKEN) the room service writes
the ``close`` event itself, so every connected client gets the final state at
once: the way to use while the server runs.  Straight through the repository
the command writes the same event with the same version check as the
service (a server that wrote meanwhile makes it retry on the new state, and a
server that writes after it loses its race and reloads the closed room), so the
database is never wrong; with REDIS_URL set it then tells the server
processes, which catch up and send their clients the final state.  Without
Redis a single server process only learns of it at its next write to the room.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, datetime

from app.broker import RedisBroker
from app.core.errors import ErrorCode, ServiceError
from app.core.json import JsonValue
from app.db.repository import Conflict, RoomRepository, Written
from app.rooms.domain.correspondence import DeadlineSpec
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import RoomClosed, RoomEvent
from app.rooms.domain.state import RoomState

ATTEMPTS = 5


def close_event(state: RoomState, reason: str) -> RoomEvent:
    """The event a ``CloseRoom`` command writes (app/rooms/commands/match.py), for this
    state."""
    if state.closed is not None:
        raise ServiceError(RoomCode.CLOSED, "the room is already closed")
    now = datetime.now(UTC)
    return RoomEvent(
        state.seq + 1,
        RoomClosed(reason, now.isoformat(timespec="seconds")),
        int(now.timestamp() * 1000),
    )


async def close_directly(
    repo: RoomRepository, room_id: str, reason: str, redis_url: str | None = None
) -> RoomState:
    """Write the ``close`` event through the repository; returns the closed state."""
    for _ in range(ATTEMPTS):
        state = await repo.load_state(room_id)
        if state is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such room")
        expected = state.seq
        ev = close_event(state, reason)
        state.apply(ev)
        try:
            # a closed correspondence room waits for nobody: its deadlines go (issue 32)
            rows: list[DeadlineSpec] | None = [] if state.corr is not None else None
            await repo.commit_events(room_id, expected, state.status, [Written(ev)], deadlines=rows)
        except Conflict:
            continue  # a server wrote to the room meanwhile: look again
        if redis_url:
            broker = RedisBroker(redis_url)
            try:
                await broker.publish(room_id, state.seq)
            finally:
                await broker.stop()
        return state
    raise ServiceError(ErrorCode.BUSY, "the room kept changing; try again")


class ServerRefused(Exception):
    """The server's refusal of a remote close (its ``code`` and ``message``), or why it
    could not be reached: what an operator's command reports, not a room service error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def close_via_server(
    base_url: str, token: str, room_id: str, reason: str, timeout: float = 10.0
) -> JsonValue:
    """POST /api/admin/rooms/{id}/close; the server's answer (the room's line, as
    JSON), or ServerRefused."""
    request = urllib.request.Request(
        f"{base_url.rstrip('/')}/api/admin/rooms/{room_id}/close",
        data=json.dumps({"reason": reason}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer: JsonValue = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            body = json.loads(exc.read())
            raise ServerRefused(str(body["code"]), str(body["message"])) from None
        except (ValueError, KeyError, TypeError):
            raise ServerRefused("http_error", f"the server answered {exc.code}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason_text = getattr(exc, "reason", exc)
        raise ServerRefused("unreachable", f"cannot reach {base_url}: {reason_text}") from None
