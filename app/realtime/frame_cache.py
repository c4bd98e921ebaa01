"""Whole WebSocket frames built once per message and framing, and shared by every
receiver with the same negotiated compression (app/realtime/deflate.py says why this
is possible: each message is compressed alone).
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
)

from app.wire.messages import PatchText, SharedStart

from .deflate import (
    CACHE_ENTRIES,
    CACHE_MAX_BYTES,
    COMPRESS_MIN_BYTES,
    EMPTY_BLOCK,
    SHARED,
    SharedDeflate,
    deflate_alone,
)

UNCOMPRESSED = 0
"""Framing key: no permessage-deflate on the socket."""
OTHER_FRAMING = -1
"""Framing key: extensions that keep state; websockets frames each message."""


def remote_window_bits(extensions: Sequence[Any]) -> int | None:
    """The client's deflate window when it compresses every message alone (what
    SharedDeflateFactory negotiates), else None (app/realtime/frames.py)."""
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
    return head + EMPTY_BLOCK + stored + b"\x00"


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
