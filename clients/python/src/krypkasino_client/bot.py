"""The run loop: connect to a room's WebSocket, keep the seat's view, play its turns.

``Bot(...).run()`` says hello with the seat's token, keeps the view from the snapshot
and the patches (``state.py``), and each time the view moves on asks ``turns.py``
what to send: the bot's move on its turn (``choose`` runs in a thread, so a bot that
thinks for a while keeps the socket answered), ``continue`` between deals.  A dropped
socket, a ``reconnect`` from a server going down, a gap in ``seq`` or a patch that
does not apply all end in the same place: connect again (with backoff) and say hello
with the last good ``seq``, so the server sends only what was missed.  It returns
once the match is finished, with a ``Summary``; a refusal no retry can mend (a token
of no seat, a seat moved to another device, a closed door) raises ``BotError``.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .http import websocket_url
from .jsontypes import JsonMap, JsonObject, JsonValue, as_int, as_opt_int, as_opt_str, as_str, obj
from .state import Applied, ViewState
from .turns import Chooser, Planner
from .version import __version__
from .view import View

__all__ = ["Bot", "BotError", "Summary"]

log = logging.getLogger("krypkasino_client")

FATAL_CODES = frozenset(
    {
        *("unauthorized", "not_found", "seat_moved", "purged", "sign_in_required"),
        *("bad_origin", "bad_token", "insufficient_scope", "ambiguous_credentials"),
    }
)
"""Errors that end the bot: no reconnect changes a wrong seat token or access token, a
missing room, a seat moved to another device or a server that wants a signed-in
browser."""
POLICY_CLOSE = 1008
"""The server closed the socket for abuse or a rule of the door (too many connections,
flooding): reconnecting at once would be more of the same."""
MAX_BACKOFF = 5.0
SEND_INTERVAL = 0.06
"""Seconds between two messages at least: a margin under the server's default limit of
20 a second per connection (``RATE_PER_SECOND``), which a bot at a table of bots that
play at once would otherwise reach and be answered ``rate_limited``."""


class BotError(RuntimeError):
    """The server refused the bot for good (the message says why)."""


class _Ending(enum.Enum):
    FINISHED = "finished"
    RECONNECT = "reconnect"


@dataclass(slots=True)
class Summary:
    """How the bot's match went: what ``run`` returns and the examples print."""

    room_id: str
    seat: int | None = None
    status: str = "waiting"
    match_no: int = 0
    deal_no: int = 0
    cumulative: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    plays: int = 0
    """Plays the server stored (acknowledged, or seen in the view)."""
    fallbacks: int = 0
    """Turns played with the first legal move after the bot's own were refused."""
    connections: int = 0
    snapshots: int = 0
    """Whole views received: one per connection at most (a resumed one gets patches)."""
    patches: int = 0
    errors: list[JsonObject] = field(default_factory=list)
    """Every ``error`` the server sent (``code``, ``message``, ``id``)."""

    def to_json(self) -> JsonObject:
        errors: list[JsonValue] = list(self.errors)
        return {
            "room_id": self.room_id,
            "seat": self.seat,
            "status": self.status,
            "match_no": self.match_no,
            "deal_no": self.deal_no,
            "cumulative": list(self.cumulative),
            "winners": list(self.winners),
            "plays": self.plays,
            "fallbacks": self.fallbacks,
            "connections": self.connections,
            "reconnects": max(0, self.connections - 1),
            "snapshots": self.snapshots,
            "patches": self.patches,
            "errors": errors,
        }


class Bot:
    """Plays one seat of one room to the end of its match: the seat of ``seat_token``,
    or, with None, the seat the ``access_token``'s account holds (hello ``own``: a bot
    seated by a room's player or by a challenge, told of it by its event stream)."""

    def __init__(
        self,
        server: str,
        room_id: str,
        seat_token: str | None,
        choose: Chooser,
        *,
        access_token: str | None = None,
        max_refusals: int = 3,
        give_up_after: float = 300.0,
    ) -> None:
        self.url = websocket_url(server, room_id)
        self.seat_token = seat_token
        self.access_token = access_token
        self.give_up_after = give_up_after
        self.state = ViewState()
        self.planner = Planner(choose, max_refusals=max_refusals)
        self.summary = Summary(room_id=room_id)
        self._caught_up_at = 0
        self._gaps = 0
        self._resend_at: float | None = None
        self._welcomed = False
        """A session was welcomed since the last look (so the backoff starts afresh)."""
        self._last_send = 0.0

    async def run(self) -> Summary:
        loop = asyncio.get_running_loop()
        failures = 0
        down_since: float | None = None
        while True:
            ending: _Ending | None = None
            try:
                async with connect(
                    self.url,
                    additional_headers=self._headers(),
                    user_agent_header=f"krypkasino-client/{__version__}",
                    max_size=2**22,
                    open_timeout=10,
                ) as ws:
                    self.summary.connections += 1
                    ending = await self._session(ws)
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as exc:
                if isinstance(exc, ConnectionClosed) and _closed_by_policy(exc):
                    raise BotError(f"the server closed the connection: {exc}") from exc
                log.info("connection lost (%s); reconnecting", exc)
            if ending is _Ending.FINISHED:
                return self._finish()
            if self._welcomed:  # the last session got going: count failures afresh
                failures, down_since, self._welcomed = 0, None, False
            down_since = loop.time() if down_since is None else down_since
            if loop.time() - down_since > self.give_up_after:
                raise BotError(f"no working connection to {self.url} for {self.give_up_after} s")
            await asyncio.sleep(min(MAX_BACKOFF, 0.2 * 2**failures))
            failures += 1

    def _headers(self) -> dict[str, str]:
        """The personal access token, when there is one, on the upgrade request too."""
        return {"Authorization": f"Bearer {self.access_token}"} if self.access_token else {}

    async def _session(self, ws: ClientConnection) -> _Ending:
        self.planner.new_connection()
        hello: JsonObject = {"type": "hello", "last_seq": self.state.seq}
        if self.seat_token is None:  # the seat the access token's account holds
            hello["own"] = True
        else:
            hello["token"] = self.seat_token
        await self._send(ws, hello)
        welcomed = False
        while True:
            raw = await self._receive(ws)
            if raw is not None:
                message = obj(json.loads(raw), "a message")
                kind = as_str(message, "type")
                if kind == "welcome":
                    welcomed = self._welcome(as_opt_int(message, "you"), as_int(message, "seq"))
                    if not welcomed:
                        return _Ending.RECONNECT
                elif kind in ("snapshot", "patch") and not self._update(kind, message):
                    return _Ending.RECONNECT
                elif kind == "ack":
                    self.planner.acked(as_opt_str(message, "id"))
                elif kind == "error":
                    self._error(message, welcomed)
                elif kind == "reconnect":  # the server is going down: come back
                    return _Ending.RECONNECT
            view = self.state.view
            if not welcomed or view is None or (self.state.seq or 0) < self._caught_up_at:
                continue  # the missed patches are still coming
            if view.status == "finished":
                return _Ending.FINISHED
            await self._act(ws, view)

    async def _receive(self, ws: ClientConnection) -> str | bytes | None:
        """The next message, or None when a play waiting to be sent again is due."""
        if self._resend_at is None:
            return await ws.recv()
        wait = self._resend_at - asyncio.get_running_loop().time()
        try:
            return await asyncio.wait_for(ws.recv(), max(0.0, wait))
        except TimeoutError:
            return None

    def _welcome(self, you: int | None, seq: int) -> bool:
        """Whether the session may go on: seated, and the server's seq not behind ours
        (a server that lost states: start again from a snapshot)."""
        if you is None:
            raise BotError("the seat token seated no one: this connection would only watch")
        self.summary.seat = you
        if self.state.seq is not None and seq < self.state.seq:
            self.state.forget()
            return False
        self._caught_up_at = seq
        self._gaps = 0
        self._welcomed = True
        return True

    def _update(self, kind: str, message: JsonMap) -> bool:
        if kind == "snapshot":
            self.state.snapshot(message)
            return True
        applied = self.state.patch(message)
        view = self.state.view
        if applied is Applied.UPDATED and view is not None:
            self.planner.seen(view)
        if applied is Applied.GAP:
            self._gaps += 1
            log.warning("a gap in seq after %s; reconnecting", self.state.seq)
            if self._gaps > 2:
                self.state.forget()
            return False
        if applied is Applied.BROKEN:
            log.warning("a patch did not apply at seq %s; asking for a snapshot", self.state.seq)
            self.state.forget()
            return False
        return True

    def _error(self, message: JsonMap, welcomed: bool) -> None:
        code = as_str(message, "code")
        text = as_opt_str(message, "message") or ""
        play_id = as_opt_str(message, "id")
        self.summary.errors.append({"code": code, "message": text, "id": play_id})
        log.warning("server error %s: %s (id %s)", code, text, play_id)
        if code in FATAL_CODES and (not welcomed or code in ("seat_moved", "purged")):
            raise BotError(f"{code}: {text}")
        action = self.planner.refused(play_id, code)
        if action == "resend":
            pending = self.planner.pending
            delay = 0.5 * (pending.resends if pending else 1)
            self._resend_at = asyncio.get_running_loop().time() + delay

    async def _act(self, ws: ClientConnection, view: View) -> None:
        for prompt in self.planner.prompts(view):
            await self._send(ws, prompt)
        if self._resend_at is not None:
            if asyncio.get_running_loop().time() < self._resend_at:
                return
            self._resend_at = None
        if not view.my_turn:
            return
        pending = await asyncio.to_thread(self.planner.play, view)
        if pending is not None:
            move = pending.move
            play: JsonObject = {"type": "play", "id": pending.id, **move.to_json()}
            log.debug("playing %s %s", move.card, list(move.take))
            await self._send(ws, play)

    async def _send(self, ws: ClientConnection, message: JsonObject) -> None:
        loop = asyncio.get_running_loop()
        wait = self._last_send + SEND_INTERVAL - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_send = loop.time()
        await ws.send(json.dumps(message))

    def _finish(self) -> Summary:
        view = self.state.view
        summary = self.summary
        summary.fallbacks, summary.plays = self.planner.fallbacks, self.planner.committed
        summary.snapshots, summary.patches = self.state.snapshots, self.state.patches
        if view is not None:
            summary.status = view.status
            summary.match_no = view.match_no
            summary.deal_no = view.deal_no
            summary.cumulative = list(view.cumulative)
            summary.winners = list(view.winners)
        return summary


def _closed_by_policy(exc: ConnectionClosed) -> bool:
    return exc.rcvd is not None and exc.rcvd.code in (POLICY_CLOSE, 4001)
