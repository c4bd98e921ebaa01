"""uvicorn's WebSocket protocol with compression that keeps no state per connection
(app/realtime/deflate.py), and ``DirectSend``: a message written to the socket at once
when nothing waits before it.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from app.wire.messages import PatchText

from .deflate import SharedDeflateFactory
from .frame_cache import FRAMES, OTHER_FRAMING, build_frame, framing_of, remote_window_bits
from .frames import ClientFrames

READ_AHEAD = 4
"""Messages of one client held for the app before the server stops reading its socket."""

SOCKET_EXTENSION = "krypkasino.socket"
"""The ASGI scope extension under which a connection finds its ``DirectSend``."""


class SharedDeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol with SharedDeflateFactory in place of
    its own compression settings (when WS_COMPRESSION is on), and a ``DirectSend``
    for the app in the scope's extensions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [SharedDeflateFactory()]
        self.client_frames: ClientFrames | None = None
        """Reads the client's plain text frames once the socket is open (app/realtime/frames.py);
        None before that and once it handed the stream to websockets' own parser."""
        self.heard_at = self.loop.time()
        """When the client last sent anything (the loop's clock): see send_keepalive_ping."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # None when the handshake was refused
            scope["extensions"][SOCKET_EXTENSION] = DirectSend(self)

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        frames = self.client_frames
        if frames is None:
            if not self.handshake_complete or self.conn.state is not State.OPEN:
                super().data_received(data)
                return
            frames = self.client_frames = ClientFrames(
                self.conn.max_message_size or 0, remote_window_bits(self.conn.extensions)
            )
            if not frames.max_size:
                self.client_frames = None  # no size limit: the library's reading
                super().data_received(data)
                return
        elif self.close_sent or self.conn.state is not State.OPEN:
            self.client_frames = None  # closing: the library sees it through
            super().data_received(frames.take_buffer() + data)
            return
        received = frames.feed(data)
        for item in received.items:
            if isinstance(item, str):
                self._to_app({"type": "websocket.receive", "text": item})
            else:  # a whole ping or pong: the library answers or times it
                super().data_received(item)
        if received.rest is not None:
            self.client_frames = None
            super().data_received(received.rest)

    def send_keepalive_ping(self) -> None:
        """uvicorn pings every connection every WS_PING_INTERVAL seconds; here only
        one the client has been silent on for that long.  Anything the client sent
        shows it is alive as well as a pong would: a player's moves, the browser's
        own ``ping`` message every 20 s.  So a connection in use costs no ping, its
        pong and their two wake-ups (about 7% of the server's CPU at 500 rooms,
        docs/benchmarks.md), and a silent one is still found dead as before."""
        assert self.ping_interval is not None
        quiet = self.loop.time() - self.heard_at
        if quiet < self.ping_interval:
            self.ping_timer = self.loop.call_later(
                self.ping_interval - quiet, self.send_keepalive_ping
            )
            return
        super().send_keepalive_ping()

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, except for when reading pauses (``_to_app``)."""
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            self._to_app({"type": "websocket.receive", "text": text})
        else:
            self._to_app({"type": "websocket.receive", "bytes": data})

    def _to_app(self, event: Any) -> None:
        """A client's message for the app.  uvicorn stops reading the socket after
        every message and starts again once the app took it, two system calls per
        message; here reading pauses only once READ_AHEAD messages wait for the app,
        which bounds what a flooding client can make the server hold just as well."""
        if self.close_sent:
            return  # the app is past websocket.close: reads stay on for the peer's close
        self.queue.put_nowait(event)
        if not self.read_paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()


class DirectSend:
    """Writes a text message on the socket at once, without the ASGI send chain.

    A room's patch goes to every connection in it; through ASGI each copy
    costs a queue, a task switch, the middlewares' send wrappers and uvicorn's
    ``send`` coroutine, several times what writing the frame costs.  When a
    connection has nothing queued before the message (the caller checks), the
    socket is open and its transport is not pushing back, the frame is built
    by the same websockets protocol object uvicorn uses and written straight
    to the transport, so framing and compression are exactly uvicorn's.
    Otherwise ``send_text`` returns False and the caller queues the message
    for the ASGI path, which waits for the transport as it should.
    """

    __slots__ = ("_protocol", "_framing")

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol
        self._framing: int | None = None
        """FRAMES' key for this socket's negotiated compression, once known."""

    def send_text(self, text: str) -> bool:
        """Write one message now; False when the socket cannot take it directly."""
        if not self._open():
            return False
        self._protocol.transport.write(self._frame(text))
        return True

    def send_texts(self, texts: list[str]) -> bool:
        """Write several messages in one write (one system call instead of one each:
        a player's patch and the ack of their play); False as ``send_text``."""
        if not self._open():
            return False
        self._protocol.transport.write(b"".join([self._frame(text) for text in texts]))
        return True

    def _open(self) -> bool:
        p = self._protocol
        return not (
            not p.handshake_complete
            or p.close_sent
            or p.disconnected
            or p.initial_response is not None
            or not p.writable.is_set()
            or p.conn.state is not State.OPEN
            or p.transport.is_closing()
        )

    def _frame(self, text: str) -> bytes:
        framing = self._framing
        if framing is None:
            framing = self._framing = framing_of(self._protocol.conn.extensions)
        if framing == OTHER_FRAMING:  # an extension we do not frame ourselves
            conn = self._protocol.conn
            conn.send_text(text.encode())
            return b"".join(conn.data_to_send())
        if not isinstance(text, PatchText):
            return FRAMES.frame(text, framing)
        # a patch carries its frames: its other receivers look up nothing, and it is
        # never sent again as this object (a resend comes from the history's copy)
        frame = text.frames.get(framing)
        if frame is None:
            frame = text.frames[framing] = build_frame(text, framing)
        return frame
