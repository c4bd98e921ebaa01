"""Talking at the table: room chat, quick reactions, and who may read spectators.

A chat line is not a move: it never changes the room's seq and is not an event.  It
is stored (``ChatStore``: the ``chat_messages`` table) so that the room's history
shows it and a connection that opens later gets the latest lines, then sent to this
process's connections of the room; the other processes hear of it by the broker
message kind ``chat`` (seq: the line's id), read it back and send it to theirs.

Quick reactions are one of a few fixed emotes shown over the sender's seat for a
moment: not stored; they travel to the other processes as the broker kind
``reaction`` whose number says the seat and the emote.

A spectator's line is marked ``spectator`` and may not carry a bot's name or the
name of anyone seated (``name_reserved``), so nobody chats as a player they are not.

The host (seat 0, who made the room) may hide spectators' chat from the players while
the match is played (an ``option`` event, ``spectator_chat``): such a line reaches the
spectators only, is stored as ``hidden``, and is never sent to a player later.

Text is the client's to render as text: the server neither escapes nor interprets it
(``docs/protocol.md``); the API layer refuses control characters (``app/text.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol, TypedDict

from app import wire
from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError, Unavailable
from app.names import RESERVED_MESSAGE, bidi_control, is_reserved_name, name_key
from app.realtime.audience import Audience
from app.rooms.domain.commands import SetSpectatorChat
from app.rooms.domain.results import TableFacts

log = logging.getLogger("krypkasino.chat")

KIND = "chat"
REACTION_KIND = "reaction"
"""Broker message kinds: a stored chat line (seq: its id), a reaction (seq: code)."""
EMOTES = wire.EMOTES
MAX_TEXT = wire.MAX_CHAT
BACKLOG = 50
"""Lines a connection is sent when it opens (the newest)."""
READ_ATTEMPTS = 6
READ_RETRY_FIRST = 0.1
"""A line another process announced is read back up to READ_ATTEMPTS times, waiting
0.1, 0.2, ... 1.6 s between tries (about 3 s in all): a database that stops answering
for a moment, or a read that does not see the other process's commit yet, costs the
line a moment's delay instead of the line."""


class ChatLine(TypedDict):
    """A stored line of a room's chat (docs/protocol.md, ``chat``)."""

    id: int
    seat: int | None
    name: str | None
    text: str
    hidden: bool
    at: int
    """Unix ms."""
    spectator: bool
    """Said by someone watching (``seat`` null): clients mark the line as such, so a
    spectator is never taken for a player (issue 34)."""


class ChatPage(TypedDict):
    messages: list[ChatLine]
    next: int | None


class ChatRooms(Protocol):
    """What the chat asks of the rooms, and nothing more (a port): the room service
    implements it (app/rooms/service.py) and app/features.py hands it in."""

    async def table_facts(self, room_id: str) -> TableFacts:
        """The names seated, whether a match is played, whether spectators' lines
        reach the players (not_found: no such room; unavailable: no database)."""

    async def execute(self, command: SetSpectatorChat) -> None:
        """The host's switch of spectators' chat (not_host for anyone else)."""

    async def announce(self, room_id: str, seq: int, kind: str) -> None:
        """Tell the other processes (best effort): a line stored, a reaction."""


class ChatStore(Protocol):
    async def add(
        self, room_id: str, seat: int | None, name: str | None, text: str, hidden: bool, at_ms: int
    ) -> int: ...

    async def get(self, message_id: int) -> tuple[str, ChatLine] | None: ...

    async def lines(
        self, room_id: str, *, after: int = 0, limit: int = 100, newest: bool = False
    ) -> list[ChatLine]: ...

    async def room_status(self, room_id: str) -> str | None:
        """The room's status, None when there is no such room."""


def chat_message(line: ChatLine) -> str:
    """The ``chat`` message of a stored line (docs/protocol.md)."""
    return wire.chat_message(line)


def reaction_code(seat: int, emote: str) -> int:
    return seat * len(EMOTES) + EMOTES.index(emote)


def reaction_message(code: int) -> str:
    seat, index = divmod(code, len(EMOTES))
    return wire.reaction_message(seat, EMOTES[index], now_ms())


def refuse_imitation(name: str, seated: Sequence[str | None]) -> None:
    """A spectator may not chat as a bot or as anyone seated at the table (compared by
    ``name_key``, the names' skeletons: case, spaces, invisible characters and look-alike
    letters aside): 422-like ``name_reserved``, nothing stored.  A name with
    bidirectional controls is refused (``bad_request``) before it is compared."""
    problem = bidi_control(name)
    if problem is not None:
        raise ServiceError(ErrorCode.BAD_REQUEST, problem)
    if is_reserved_name(name):
        raise ServiceError(ErrorCode.NAME_RESERVED, RESERVED_MESSAGE)
    key = name_key(name)
    if any(s is not None and name_key(s) == key for s in seated):
        raise ServiceError(
            ErrorCode.NAME_RESERVED,
            "a player at this table has this name; spectators chat under another",
        )


class Chat:
    def __init__(self, rooms: ChatRooms, audience: Audience, store: ChatStore) -> None:
        self.rooms = rooms
        self.audience = audience
        self.store = store

    # ------------------------------------------------------------------ chat

    async def say(self, room_id: str, seat: int | None, name: str | None, text: str) -> None:
        """Store a line and send it to everyone who may read it, here and elsewhere.
        A player speaks under their seat's name; a spectator under the name they give."""
        text = text.strip()
        if not text or len(text) > MAX_TEXT:
            raise ServiceError(
                ErrorCode.BAD_MESSAGE, f"a chat message has 1..{MAX_TEXT} characters"
            )
        table = await self.rooms.table_facts(room_id)
        if seat is not None:
            name = table.names[seat]
        elif name is not None:
            refuse_imitation(name, table.names)
        hidden = seat is None and not table.spectator_chat and table.playing
        at = now_ms()
        try:
            line_id = await self.store.add(room_id, seat, name, text, hidden, at)
        except Unavailable as exc:
            log.info("chat line not stored", extra={"room": room_id, "error": type(exc).__name__})
            raise ServiceError(
                ErrorCode.UNAVAILABLE, "the chat is not reachable right now; try again"
            ) from exc
        self._deliver(
            room_id,
            {
                "id": line_id,
                "seat": seat,
                "name": name,
                "text": text,
                "hidden": hidden,
                "at": at,
                "spectator": seat is None,
            },
        )
        await self.rooms.announce(room_id, line_id, KIND)

    async def on_broker(self, room_id: str, line_id: int) -> None:
        """Another process stored a line: send it to this process's connections.

        The line is read back from the database, which may be away for a moment (or
        not yet show the other process's commit to this connection pool): the read is
        tried again with backoff for a while, and a line given up on is logged, never
        dropped in silence."""
        if not self.audience.viewers(room_id):
            return
        delay = READ_RETRY_FIRST
        for attempt in range(READ_ATTEMPTS):
            try:
                found = await self.store.get(line_id)
            except Unavailable as exc:  # the database is away: try again, then say so
                log.info(
                    "chat line not read; retrying",
                    extra={"room": room_id, "line": line_id, "error": type(exc).__name__},
                )
            else:
                if found is not None:
                    if found[0] == room_id:
                        self._deliver(room_id, found[1])
                    return
            if attempt + 1 < READ_ATTEMPTS:
                await asyncio.sleep(delay)
                delay *= 2
        log.warning(
            "chat line from another process not delivered", extra={"room": room_id, "line": line_id}
        )

    async def backlog(self, room_id: str, sink: Any, seat: int | None) -> None:
        """The newest lines, for a connection that just opened (its reader may have
        been here before, or have reloaded)."""
        try:
            lines = await self.store.lines(room_id, limit=BACKLOG, newest=True)
        except Unavailable:
            return  # the database is away: the chat starts empty
        shown = [ln for ln in lines if not (ln["hidden"] and seat is not None)]
        sink.send_text(wire.chat_history_message(shown))

    async def history(self, room_id: str, after: int, limit: int) -> ChatPage:
        """A room's chat, oldest first (the history page), with each line's ``hidden``:
        a spectator's line the players were not shown during play is listed only once
        the match is over.  ``{"messages", "next"}``; not_found for no such room."""
        try:
            status = await self.store.room_status(room_id)
            if status is None:
                raise ServiceError(ErrorCode.NOT_FOUND, "no such room")
            lines = await self.store.lines(room_id, after=after, limit=limit)
        except Unavailable as exc:  # the database is away: said as such, nothing changed
            raise ServiceError(
                ErrorCode.UNAVAILABLE, "the database is not answering; try again"
            ) from exc
        nxt = lines[-1]["id"] if len(lines) == limit else None
        if status != "finished":
            lines = [ln for ln in lines if not ln["hidden"]]
        return {"messages": lines, "next": nxt}

    def _deliver(self, room_id: str, line: ChatLine) -> None:
        text = chat_message(line)
        for viewer in self.audience.viewers(room_id):
            if line["hidden"] and viewer.seat is not None:
                continue
            viewer.sink.send_text(text)

    # -------------------------------------------------------------- reactions

    async def react(self, room_id: str, seat: int | None, emote: str) -> None:
        if seat is None:
            raise ServiceError(ErrorCode.UNAUTHORIZED, "only players react (over their seat)")
        if emote not in EMOTES:
            raise ServiceError(ErrorCode.BAD_MESSAGE, "unknown reaction")
        code = reaction_code(seat, emote)
        await self.on_reaction(room_id, code)
        await self.rooms.announce(room_id, code, REACTION_KIND)

    async def on_reaction(self, room_id: str, code: int) -> None:
        if not 0 <= code < len(EMOTES) * 6:
            return
        text = reaction_message(code)
        for viewer in self.audience.viewers(room_id):
            viewer.sink.send_text(text)

    # --------------------------------------------------------------- settings

    async def set_spectator_chat(self, room_id: str, seat: int | None, on: bool) -> None:
        """The host shows or hides spectators' chat to the players: a room command (an
        ``option`` event: every process and every later reload agree)."""
        await self.rooms.execute(SetSpectatorChat(room_id, seat, on))
