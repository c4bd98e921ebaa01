"""The few HTTP calls a bot needs: make a room, take a seat, read a room's summary,
find a room by its code or invite link, read a finished deal's record.

Standard library only (``urllib.request``), so the package needs nothing beyond the
WebSocket library.  Every call may carry a personal access token (``kkp_...``), sent
as ``Authorization: Bearer``: a server that knows the bot's account then seats it as
that account.  A refusal raises ``ApiError`` with the server's ``{"code", "message"}``
(docs/protocol.md, "HTTP").
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from .jsontypes import JsonMap, JsonObject, JsonValue, as_int, as_str, obj

__all__ = ["Api", "ApiError", "RoomCreated", "RoomSummary", "SeatTaken", "websocket_url"]

ROOM_ID = re.compile(r"^[0-9a-f]{32}$")
CHALLENGE_ID = re.compile(r"^[0-9a-f]{24}$")
ROOM_CODE = re.compile(r"^[A-Za-z0-9]{4,12}$")
INVITE = re.compile(r"/r/([0-9a-f]{32})(?:[/?#]|$)")
"""The room id in an invite link, ``https://host/r/<room id>`` (what the browser shares)."""


class ApiError(Exception):
    """The server refused a call (``status``, ``code``, ``message`` as it answered), or
    could not be reached (``status`` 0, ``code`` ``unreachable``)."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """Seconds to wait before asking again (429 ``rate_limited``), when given."""


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A seat of a room and its token: whoever holds the token plays the seat."""

    room_id: str
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class RoomCreated(SeatTaken):
    code: str
    """The room's short code, for others to join by."""


@dataclass(frozen=True, slots=True)
class RoomSummary:
    room_id: str
    status: str
    players: int
    deal_no: int
    raw: JsonMap
    """The whole summary (seats, rules, cumulative totals: docs/protocol.md)."""


def websocket_url(server: str, room_id: str) -> str:
    """The room's WebSocket address on ``server`` (``http://host:port``, perhaps with a
    path prefix): ws for http, wss for https."""
    parts = urllib.parse.urlsplit(server.rstrip("/"))
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"not a server address: {server!r} (say http://host:port)")
    return f"{scheme}://{parts.netloc}{parts.path}/ws/rooms/{room_id}"


class Api:
    """The server's HTTP API at ``server`` (``http://host:port``)."""

    def __init__(self, server: str, access_token: str | None = None, timeout: float = 10) -> None:
        self.server = server.rstrip("/")
        self.access_token = access_token
        self.timeout = timeout

    def create_room(
        self,
        players: int,
        name: str,
        *,
        bots: int = 0,
        rules: JsonObject | None = None,
        **options: JsonValue,
    ) -> RoomCreated:
        """Make a room of ``players`` seats and take its first seat; ``bots`` of the
        others go to the server's bots at once.  ``options`` are the room options of
        docs/protocol.md (``bot_level``, ``deal_pause``, ``turn_clock``, ...)."""
        body: JsonObject = {"players": players, "name": name, "bots": bots, "rules": rules or {}}
        body.update(options)
        data = self._call("POST", "/api/rooms", body)
        return RoomCreated(
            room_id=as_str(data, "room_id"),
            seat=as_int(data, "seat"),
            token=as_str(data, "token"),
            code=as_str(data, "code"),
        )

    def join(self, room_id: str, name: str) -> SeatTaken:
        """Take the next free seat of the room (409 ``room_full`` when none is left)."""
        data = self._call("POST", f"/api/rooms/{_room(room_id)}/seats", {"name": name})
        return SeatTaken(room_id=room_id, seat=as_int(data, "seat"), token=as_str(data, "token"))

    def summary(self, room_id: str) -> RoomSummary:
        data = self._call("GET", f"/api/rooms/{_room(room_id)}")
        return RoomSummary(
            room_id=as_str(data, "room_id"),
            status=as_str(data, "status"),
            players=as_int(data, "players"),
            deal_no=as_int(data, "deal_no"),
            raw=data,
        )

    def room_for_code(self, code: str) -> str:
        """The room id of a short room code (any case)."""
        if not ROOM_CODE.match(code):
            raise ValueError(f"not a room code: {code!r}")
        return as_str(self._call("GET", f"/api/codes/{code}"), "room_id")

    def resolve_room(self, room: str) -> str:
        """A room id from what a person has at hand: the id itself, the invite link
        (``.../r/<id>``) or the short code."""
        room = room.strip()
        if ROOM_ID.match(room):
            return room
        found = INVITE.search(room)
        if found is not None:
            return found.group(1)
        return self.room_for_code(room)

    def seat_bot(self, room_id: str, name: str, seat_token: str) -> int:
        """Seat the online bot ``name`` in the room's next free seat, as the player who
        holds ``seat_token`` of the room; the seat's number."""
        body: JsonObject = {"name": name, "token": seat_token}
        return as_int(self._call("POST", f"/api/rooms/{_room(room_id)}/bots", body), "seat")

    def challenge(
        self, opponent: str, players: int = 2, *, rules: JsonObject | None = None, bots: int = 0
    ) -> str:
        """Challenge the online bot ``opponent`` (this token's account must be a bot);
        the challenge's id."""
        body: JsonObject = {"opponent": opponent, "players": players, "bots": bots}
        body["rules"] = rules or {}
        return as_str(self._call("POST", "/api/bot/challenges", body), "id")

    def accept_challenge(self, challenge_id: str) -> str:
        """Accept a challenge addressed to this bot; the id of the room it made."""
        path = f"/api/bot/challenges/{_challenge(challenge_id)}/accept"
        return as_str(self._call("POST", path), "room_id")

    def decline_challenge(self, challenge_id: str) -> None:
        self._call("POST", f"/api/bot/challenges/{_challenge(challenge_id)}/decline")

    def deal_record(self, room_id: str, deal_no: int, match_no: int | None = None) -> JsonMap:
        """The record of a finished deal (of the current match, or of ``match_no``)."""
        path = f"/api/rooms/{_room(room_id)}"
        path += f"/deals/{deal_no}" if match_no is None else f"/matches/{match_no}/deals/{deal_no}"
        return self._call("GET", path)

    def _call(self, method: str, path: str, body: JsonObject | None = None) -> JsonMap:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.access_token:
            headers["Authorization"] = f"Bearer {self.access_token}"
        request = urllib.request.Request(self.server + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                text = answer.read()
        except urllib.error.HTTPError as exc:
            raise _refusal(exc) from None
        except (urllib.error.URLError, OSError) as exc:
            raise ApiError(0, "unreachable", f"{self.server}: {exc}") from exc
        return obj(json.loads(text), "the answer") if text else {}


def _room(room_id: str) -> str:
    if not ROOM_ID.match(room_id):
        raise ValueError(f"not a room id (32 hex digits): {room_id!r}")
    return room_id


def _challenge(challenge_id: str) -> str:
    if not CHALLENGE_ID.match(challenge_id):
        raise ValueError(f"not a challenge id (24 hex digits): {challenge_id!r}")
    return challenge_id


def _refusal(exc: urllib.error.HTTPError) -> ApiError:
    """The server's ``{"code", "message"}`` of a 4xx or 5xx, or the bare status."""
    code, message = "http_error", exc.reason if isinstance(exc.reason, str) else ""
    try:
        data = json.loads(exc.read())
    except (ValueError, OSError):
        data = None
    if isinstance(data, dict):
        code = str(data.get("code") or code)
        message = str(data.get("message") or data.get("detail") or message)
    retry = exc.headers.get("Retry-After") if exc.headers else None
    try:
        retry_after = float(retry) if retry else None
    except ValueError:
        retry_after = None
    return ApiError(exc.code, code, message, retry_after)
