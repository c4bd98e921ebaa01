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
from websockets.typing import ExtensionParameter

WINDOW_BITS = 12
"""A 4 KB window: our messages are small; a bigger one compresses them no better."""

MEM_LEVEL = 5
"""zlib's memory for one compression (1-9): small, as uvicorn sets it."""

CACHE_ENTRIES = 64
"""Compressed messages kept: enough for every receiver of a burst of patches."""

CACHE_MAX_BYTES = 64 * 1024
"""Messages larger than this (big snapshots) go to one receiver: not worth caching."""

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
        encoder = zlib.compressobj(wbits=-window_bits, memLevel=MEM_LEVEL)
        out = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        assert out[-4:] == _EMPTY_BLOCK
        out = out[:-4]
        self.misses += 1
        if cacheable:
            self._items[key] = out
            if len(self._items) > self.entries:
                self._items.popitem(last=False)
        return out


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


class SharedDeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol with SharedDeflateFactory in place of
    its own compression settings (used when WS_COMPRESSION is on)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [SharedDeflateFactory()]
