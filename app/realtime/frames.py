"""Reading a client's plain text frames without the websockets library's parser.

Every message a client sends (a play, a ping) went through websockets'
frame parser, a chain of generators written for every case the protocol
allows, then uvicorn's event dispatch: about half the server's CPU for a
ping (bench: cProfile of the server under pings, docs/benchmarks.md).
Nearly every frame a browser sends is the simplest kind: one whole,
masked text frame, compressed alone (no context takeover, which the
server requires, app/realtime/deflate.py).  ``ClientFrames`` reads those itself
and hands anything else, byte for byte, to the library:

* a ping or pong frame goes to the library whole, one frame at a time, so
  the library's parser is always between frames when it gets one;
* anything else (a close, a binary or fragmented message, a reserved bit,
  a frame over the size limit, bad UTF-8, a payload that will not inflate)
  ends the fast path for the connection: that frame and everything after
  it go to the library, which answers it as it always did (a close with
  1009 for a message too big, 1007 for bad UTF-8, 1002 for the rest).

It keeps only the bytes of a frame that has not fully arrived, so the
library never sees half a frame from here.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from websockets.speedups import apply_mask

_EMPTY_BLOCK = b"\x00\x00\xff\xff"
_TEXT, _PING, _PONG = 0x1, 0x9, 0xA


@dataclass(slots=True)
class Received:
    """What a chunk of bytes held, in order: text messages (str) and whole control
    frames for the library (bytes); ``rest`` is what follows once the fast path gave up
    (None while it goes on)."""

    items: list[str | bytes] = field(default_factory=list)
    rest: bytes | None = None


class ClientFrames:
    """A client's incoming frames, for one connection (see the module's docstring)."""

    __slots__ = ("max_size", "window_bits", "_buffer")

    def __init__(self, max_size: int, window_bits: int | None) -> None:
        self.max_size = max_size
        """The largest message (after inflating) the server takes."""
        self.window_bits = window_bits
        """The client's deflate window when it compresses each message alone; None
        when compression was not negotiated (a compressed frame is then an error)."""
        self._buffer = b""

    def feed(self, data: bytes) -> Received:
        buf = self._buffer + data if self._buffer else data
        out = Received()
        pos, end = 0, len(buf)
        while end - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            length, head = b1 & 0x7F, 2
            if length == 126:
                if end - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2 : pos + 4], "big"), 4
            elif length == 127:
                if end - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2 : pos + 10], "big"), 10
            if not b1 & 0x80 or length > self.max_size:  # unmasked, or too big: not ours
                return self._give_up(out, buf[pos:])
            body = pos + head + 4
            frame_end = body + length
            if frame_end > end:
                break  # the rest of this frame has not arrived
            opcode, rsv, fin = b0 & 0x0F, b0 & 0x70, b0 & 0x80
            if fin and opcode == _TEXT and (rsv == 0 or (rsv == 0x40 and self.window_bits)):
                text = self._text(apply_mask(buf[body:frame_end], buf[body - 4 : body]), rsv)
                if text is None:
                    return self._give_up(out, buf[pos:])
                out.items.append(text)
            elif fin and rsv == 0 and opcode in (_PING, _PONG):
                out.items.append(bytes(buf[pos:frame_end]))
            else:
                return self._give_up(out, buf[pos:])
            pos = frame_end
        self._buffer = bytes(buf[pos:])
        return out

    def _text(self, payload: bytes, rsv: int) -> str | None:
        """The message, or None when the library should judge it."""
        if rsv:
            assert self.window_bits is not None
            inflate = zlib.decompressobj(wbits=-self.window_bits)
            try:
                payload = inflate.decompress(payload + _EMPTY_BLOCK, self.max_size)
            except zlib.error:
                return None
            if inflate.unconsumed_tail:
                return None  # over the size limit once inflated
        try:
            return payload.decode()
        except UnicodeDecodeError:
            return None

    def _give_up(self, out: Received, rest: bytes) -> Received:
        self._buffer = b""
        out.rest = bytes(rest)
        return out

    def take_buffer(self) -> bytes:
        """The bytes of a frame not yet whole (the library reads on from them)."""
        buffered, self._buffer = self._buffer, b""
        return buffered
