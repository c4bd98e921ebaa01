"""WebSocket compression that costs an idle connection nothing.

permessage-deflate as uvicorn sets it up keeps a zlib compressor and
decompressor per connection for its whole life ("context takeover"): about
50 KB per socket once the first message has gone out, on every spectator who
is only watching (bench/idle_sockets.py).  Here both directions are negotiated
without context takeover, so each message is compressed and decompressed on
its own and nothing stays allocated between messages.  That also makes a
message's compressed bytes depend on nothing but the message: a patch that
goes to every connection of a room is compressed once and the same bytes are
sent to all of them (a small cache keyed by the message), instead of once per
receiver.

The price is a lower ratio on small messages (no shared history between
messages); the numbers are in docs/benchmarks.md.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.protocol import State
from websockets.typing import ExtensionParameter

from app.wire.messages import PatchText, SharedStart

from .wsframes import ClientFrames

WINDOW_BITS = 12
"""A 4 KB window: our messages are small; a bigger one compresses them no better."""

MEM_LEVEL = 5
"""zlib's memory for one compression (1-9): small, as uvicorn sets it."""

CACHE_ENTRIES = 64
"""Compressed messages kept: enough for every receiver of a burst of patches."""

CACHE_MAX_BYTES = 64 * 1024
"""Messages larger than this (big snapshots) go to one receiver: not worth caching."""

COMPRESS_MIN_BYTES = 256
"""Shorter messages go uncompressed (RFC 7692 lets each message choose): an ack,
a presence or a pong shrinks by a few bytes at best, and a compression costs
about as much CPU as on a patch."""

_EMPTY_BLOCK = b"\x00\x00\xff\xff"


class CompressedOnce:
    """An LRU of compressed payloads, shared by every connection of the process."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self.entries = entries
        self._items: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def compress(self, data: bytes, window_bits: int) -> bytes:
        """The message compressed on its own, without the trailing empty block."""
        cacheable = len(data) <= CACHE_MAX_BYTES
        key = (window_bits, data)
        if cacheable:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
        out = deflate_alone(data, window_bits)
        self.misses += 1
        if cacheable:
            self._items[key] = out
            if len(self._items) > self.entries:
                self._items.popitem(last=False)
        return out


_DEFLATERS = threading.local()
"""Each thread's compressors, one per window size (``deflate_alone``)."""


def deflate_alone(data: bytes, window_bits: int) -> bytes:
    """``data`` compressed on its own, without the trailing empty block (RFC 7692).

    One compressor per window size (and thread) serves every message instead of
    a new one each: a new compressor allocates and clears about 40 KB of zlib
    state, for a message of a few hundred bytes.  A full flush ends each
    message on a byte boundary and resets the compressor (its history is
    forgotten, its positions start again at zero), so every message inflates
    alone, as no context takeover requires, and its bytes are exactly those of
    a new compressor (tests/test_wsdeflate.py compares them).
    """
    encoders: dict[int, Any] | None = getattr(_DEFLATERS, "by_bits", None)
    if encoders is None:
        encoders = _DEFLATERS.by_bits = {}
    encoder = encoders.get(window_bits)
    if encoder is None:
        encoder = encoders[window_bits] = zlib.compressobj(wbits=-window_bits, memLevel=MEM_LEVEL)
    try:
        out = encoder.compress(data) + encoder.flush(zlib.Z_FULL_FLUSH)
    except BaseException:
        del encoders[window_bits]  # stopped halfway: its state is no longer a fresh one's
        raise
    assert out[-4:] == _EMPTY_BLOCK
    return out[:-4]


SHARED = CompressedOnce()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate without context takeover on our side, whose whole
    (unfragmented) messages come from the shared cache."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.opcode in CTRL_OPCODES
            or frame.opcode is Opcode.CONT
            or not frame.fin
            or not self.local_no_context_takeover
        ):
            return super().encode(frame)
        if len(frame.data) < COMPRESS_MIN_BYTES:
            return frame  # RSV1 stays clear: sent as it is
        data = SHARED.compress(bytes(frame.data), self.local_max_window_bits)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Accepts a client's permessage-deflate offer with no context takeover in
    either direction (RFC 7692 lets the server require both), and hands out
    SharedDeflate extensions."""

    def __init__(self) -> None:
        super().__init__(
            server_no_context_takeover=True,
            client_no_context_takeover=True,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings={"memLevel": MEM_LEVEL},
        )

    def process_request_params(
        self,
        params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Any],
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        shared = SharedDeflate(
            ext.remote_no_context_takeover,
            ext.local_no_context_takeover,
            ext.remote_max_window_bits,
            ext.local_max_window_bits,
            ext.compress_settings,
        )
        return response, shared


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
        """Reads the client's plain text frames once the socket is open (app/wsframes.py);
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


UNCOMPRESSED = 0
"""Framing key: no permessage-deflate on the socket."""
OTHER_FRAMING = -1
"""Framing key: extensions that keep state; websockets frames each message."""


def remote_window_bits(extensions: Sequence[Any]) -> int | None:
    """The client's deflate window when it compresses every message alone (what
    SharedDeflateFactory negotiates), else None (app/wsframes.py)."""
    if (
        len(extensions) == 1
        and isinstance(extensions[0], PerMessageDeflate)
        and extensions[0].remote_no_context_takeover
    ):
        return int(extensions[0].remote_max_window_bits or 15)
    return None


def framing_of(extensions: Sequence[Any]) -> int:
    """How a socket's messages are framed: UNCOMPRESSED, the window bits of a
    SharedDeflate that keeps no context (its frames depend on nothing but the
    message), or OTHER_FRAMING."""
    if not extensions:
        return UNCOMPRESSED
    if (
        len(extensions) == 1
        and isinstance(extensions[0], SharedDeflate)
        and extensions[0].local_no_context_takeover
    ):
        return int(extensions[0].local_max_window_bits)
    return OTHER_FRAMING


class FrameCache:
    """Whole server frames (header and payload) of recent text messages.

    Every connection of a room gets the same patch (every spectator, and every
    seat whose own part did not change), and the frame of a message depends
    only on the message and the framing, so it is built once.  Server frames
    are not masked (RFC 6455 5.1)."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self.entries = entries
        self._items: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def frame(self, text: str, framing: int) -> bytes:
        data = text.encode()
        if framing == UNCOMPRESSED or len(data) < COMPRESS_MIN_BYTES:
            return text_frame(data, compressed=False)  # cheaper to build than to look up
        key = (text, framing)
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            return found
        frame = text_frame(SHARED.compress(data, framing), compressed=True)
        if len(data) <= CACHE_MAX_BYTES:
            self._items[key] = frame
            if len(self._items) > self.entries:
                self._items.popitem(last=False)
        return frame


def build_frame(text: PatchText, framing: int) -> bytes:
    """The frame of a patch for a socket's framing, built once per patch (the patch
    keeps it): its shared start compressed once for every audience of its change."""
    shared = text.shared
    rest = text[len(shared) :].encode()
    if framing == UNCOMPRESSED or len(shared.data) + len(rest) < COMPRESS_MIN_BYTES:
        return text_frame(shared.data + rest, compressed=False)
    return text_frame(deflate_with_shared_start(shared, rest, framing), compressed=True)


def deflate_with_shared_start(shared: SharedStart, rest: bytes, window_bits: int) -> bytes:
    """A permessage-deflate payload for a message that begins with ``shared``, the
    same in the messages of other receivers (a patch's seq and public operations),
    and goes on with ``rest``.

    The shared part is compressed once (kept on it) and ends, as a flushed deflate
    stream does, on a byte boundary with an empty stored block; the rest (one
    audience's own operations, a few dozen bytes) follows as a stored block, then
    the three header bits of the empty block that RFC 7692 has the sender take
    off the end (the receiver adds its other four bytes back).  So one
    compression serves every audience of a change instead of one each.
    """
    if not rest or len(rest) > 0xFFFF:
        return SHARED.compress(shared.data + rest, window_bits)
    head = shared.deflated.get(window_bits)
    if head is None:
        head = shared.deflated[window_bits] = deflate_alone(shared.data, window_bits)
    stored = b"\x00" + struct.pack("<HH", len(rest), len(rest) ^ 0xFFFF) + rest
    return head + _EMPTY_BLOCK + stored + b"\x00"


def text_frame(payload: bytes, compressed: bool) -> bytes:
    """A final, unmasked text frame; RSV1 marks a compressed message (RFC 7692)."""
    first = 0xC1 if compressed else 0x81
    n = len(payload)
    if n < 126:
        header = bytes((first, n))
    elif n < 65536:
        header = struct.pack("!BBH", first, 126, n)
    else:
        header = struct.pack("!BBQ", first, 127, n)
    return header + payload


FRAMES = FrameCache()
