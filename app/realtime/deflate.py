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

import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

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

COMPRESS_MIN_BYTES = 256
"""Shorter messages go uncompressed (RFC 7692 lets each message choose): an ack,
a presence or a pong shrinks by a few bytes at best, and a compression costs
about as much CPU as on a patch."""

EMPTY_BLOCK = b"\x00\x00\xff\xff"


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
    a new compressor (tests/realtime/test_deflate.py compares them).
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
    assert out[-4:] == EMPTY_BLOCK
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
