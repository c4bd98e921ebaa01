"""One open bot event stream: what it tells its bot, line by line (issue 51).

Each line is one JSON object and a newline (NDJSON).  ``run`` looks at the database
about once a second (``POLL_S``), and at once when this process seats the bot or
challenges it (``Wakeups``): every live room with a seat linked to the bot's account
is told once as ``game``; each open challenge to it once as ``challenge``, and
``challenge_gone`` when it is no longer open.  An empty line every ``KEEP_ALIVE_S``
keeps proxies from closing a quiet stream.  While it runs, its row in the database is
renewed (the bot is online for every process) and its token's last use kept fresh.
It ends when its token is revoked (seen at the next look), when the server stops,
or when its reader falls ``put`` too far behind (``put`` answers False).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.core.clock import now_ms
from app.core.errors import Unavailable

from .store import BotPlayStore, ChallengeRow, GameRow

POLL_S = 1.0
KEEP_ALIVE_S = 15.0
RENEW_MS = 10_000
"""A stream's row is renewed this often ..."""
STALE_MS = 30_000
"""... and counts (the bot online, a stream of its two) while renewed this recently."""

Put = Callable[[bytes], bool]
"""Hands a line to the reader's buffer; False when the buffer is full."""


def game_line(game: GameRow) -> bytes:
    body = {"type": "game", "room_id": game.room_id, "seat": game.seat, "code": game.code}
    return json.dumps(body).encode() + b"\n"


def challenge_line(c: ChallengeRow) -> bytes:
    body = {
        "type": "challenge",
        "id": c.id,
        "from": c.from_name,
        "players": c.players,
        "rules": c.rules,
        "bots": c.bots,
        "expires_ms": c.expires_ms,
    }
    return json.dumps(body).encode() + b"\n"


def gone_line(challenge_id: str) -> bytes:
    return json.dumps({"type": "challenge_gone", "id": challenge_id}).encode() + b"\n"


class Wakeups:
    """This process's open streams by account: a seat or a challenge made here wakes
    the bot's streams at once rather than at their next look; ``stop`` ends them all."""

    def __init__(self) -> None:
        self._events: dict[str, set[asyncio.Event]] = {}
        self.stopping = False

    def add(self, account_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._events.setdefault(account_id, set()).add(event)
        return event

    def remove(self, account_id: str, event: asyncio.Event) -> None:
        events = self._events.get(account_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._events[account_id]

    def wake(self, account_id: str) -> None:
        for event in self._events.get(account_id, ()):
            event.set()

    def open_here(self) -> int:
        return sum(len(events) for events in self._events.values())

    def stop(self) -> None:
        self.stopping = True
        for events in self._events.values():
            for event in events:
                event.set()


@dataclass(slots=True)
class OpenStream:
    """A stream admitted (its row stored): ``run`` it, then ``close`` it."""

    stream_id: str
    account_id: str
    token_id: str
    store: BotPlayStore
    wakeups: Wakeups
    touch: Callable[[str], Awaitable[None]]
    """Keeps the token's last use fresh (AccessTokens.touch: written at most every 30 s)."""
    closing: Callable[[], bool]
    """Whether the server is stopping (the room service's ``closing``)."""
    _event: asyncio.Event = field(default_factory=asyncio.Event)
    _games: set[str] = field(default_factory=set)
    _shown: set[str] = field(default_factory=set)

    async def run(self, put: Put) -> str:
        """Tell the bot its games and challenges until the stream ends; why it ended:
        ``revoked``, ``shutdown`` or ``overflow``."""
        self._event = self.wakeups.add(self.account_id)
        loop = asyncio.get_running_loop()
        last_line = loop.time()
        renewed = now_ms()
        try:
            while True:
                if self.wakeups.stopping or self.closing():
                    return "shutdown"
                self._event.clear()
                try:
                    lines = await self._look()
                    if now_ms() - renewed >= RENEW_MS:
                        renewed = now_ms()
                        await self.store.renew_stream(self.stream_id, renewed)
                    await self.touch(self.token_id)
                except Unavailable:
                    lines = []  # the database is away: look again at the next round
                if lines is None:
                    return "revoked"
                if not lines and loop.time() - last_line >= KEEP_ALIVE_S:
                    lines = [b"\n"]
                for line in lines:
                    if not put(line):
                        return "overflow"
                    last_line = loop.time()
                try:
                    await asyncio.wait_for(self._event.wait(), POLL_S)
                except TimeoutError:
                    pass
        finally:
            self.wakeups.remove(self.account_id, self._event)

    async def _look(self) -> list[bytes] | None:
        """The lines a look at the database makes; None when the token is revoked."""
        poll = await self.store.poll(self.account_id, self.token_id, now_ms())
        if not poll.token_live:
            return None
        lines = [game_line(g) for g in poll.games if g.room_id not in self._games]
        self._games.update(g.room_id for g in poll.games)
        open_ids = {c.id for c in poll.challenges}
        lines += [challenge_line(c) for c in poll.challenges if c.id not in self._shown]
        lines += [gone_line(cid) for cid in sorted(self._shown - open_ids)]
        self._shown = open_ids
        return lines

    async def close(self) -> None:
        """Forget the stream's row (best effort: a row left behind goes stale)."""
        try:
            await self.store.close_stream(self.stream_id)
        except Unavailable:
            pass
