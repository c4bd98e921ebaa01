"""One socket's outgoing side: a bounded queue drained by its own writer task.

Each connection owns one, so a slow client never holds up a room: the room's hub
hands every message to ``send_text`` and moves on.  A message is written straight
to the socket when nothing is waiting before it (``DirectSend``); otherwise it
queues, and a client that lets QUEUE_LIMIT messages pile up is dropped (it
reconnects for a snapshot).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketDisconnect

from app import wire

from .socket_protocol import SOCKET_EXTENSION, DirectSend

QUEUE_LIMIT = 2000
"""Messages waiting for a slow client before it is dropped (it reconnects for a snapshot)."""
CLOSE_POLICY = 1008
"""The close code for a client that broke a rule (here: let its queue overflow)."""


class Connection:
    """One socket's outgoing side: a queue and the task that writes it."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.direct: DirectSend | None = ws.scope.get("extensions", {}).get(SOCKET_EXTENSION)
        """Writes a message at once when nothing is waiting before it (see DirectSend)."""
        self.writing = False
        """True while the writer task holds a message it has not finished sending."""
        self.held: list[str] | None = None
        """Messages gathered while the socket's own play is handled (``hold``)."""
        self.task = asyncio.create_task(self._write())

    def send_text(self, text: str) -> None:
        if self.held is not None:
            self.held.append(text)
            return
        direct = self._direct()
        if direct is not None and direct.send_text(text):
            return  # nothing could be overtaken: written straight to the socket
        self._enqueue(text)

    def hold(self) -> None:
        """Gather what is sent from now until ``release``: the patch of a player's own
        play and its ack then leave in one write instead of two."""
        if self.held is None:
            self.held = []

    def release(self) -> None:
        held, self.held = self.held, None
        if not held:
            return
        direct = self._direct()
        if direct is not None and direct.send_texts(held):
            return
        for text in held:
            self._enqueue(text)

    def _direct(self) -> DirectSend | None:
        """The direct path, when nothing is waiting that a new message could overtake."""
        if self.writing or not self.queue.empty():
            return None
        return self.direct

    def _enqueue(self, text: str) -> None:
        if self.queue.qsize() > QUEUE_LIMIT:
            self.close(CLOSE_POLICY)
            return
        self.queue.put_nowait(text)

    def error(self, code: str, message: str, msg_id: str | None = None) -> None:
        self.send_text(wire.error_message(code, message, msg_id))

    def close(self, code: int) -> None:
        self.release()  # what was held goes out before the close
        self.queue.put_nowait(code)

    async def _write(self) -> None:
        try:
            while True:
                self.writing = False
                item = await self.queue.get()
                self.writing = True
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def finish(self) -> None:
        """Let queued messages (e.g. a last error) go out, then stop the writer."""
        self.close(1000)
        try:
            await asyncio.wait_for(self.task, timeout=2)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
            self.task.cancel()  # a socket that does not take its last messages
