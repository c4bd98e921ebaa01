"""app/realtime/deflate.py and frame_cache.py: per-message compression that keeps
nothing between messages and compresses a message once for all of its receivers."""

from __future__ import annotations

import random
import zlib

from websockets.frames import Frame, Opcode

from app.realtime.deflate import (
    CACHE_MAX_BYTES,
    MEM_LEVEL,
    SHARED,
    WINDOW_BITS,
    CompressedOnce,
    SharedDeflate,
    deflate_alone,
)

PATCH = b'[{"op":"replace","path":"/seq","value":12},{"op":"add","path":"/log/-","value":"x"}' + (
    b',{"op":"replace","path":"/table","value":["2C","3D","4H","5S","6C","7D","8H","9S"]}' * 4
    + b"]"
)


def connection() -> SharedDeflate:
    """A negotiated extension as SharedDeflateFactory makes it."""
    return SharedDeflate(True, True, WINDOW_BITS, WINDOW_BITS, {"memLevel": 5})


def inflate(data: bytes) -> bytes:
    """What a client does with one message: a fresh context, the empty block added back."""
    return zlib.decompressobj(wbits=-WINDOW_BITS).decompress(data + b"\x00\x00\xff\xff")


def test_two_receivers_get_the_same_bytes_from_one_compression() -> None:
    cache = CompressedOnce()
    first = cache.compress(PATCH, WINDOW_BITS)
    second = cache.compress(bytes(bytearray(PATCH)), WINDOW_BITS)  # equal, not the same object
    assert first == second and (cache.misses, cache.hits) == (1, 1)
    assert inflate(first) == PATCH
    assert cache.compress(PATCH, 15) != b"" and cache.misses == 2, "the window is part of the key"


def test_the_cache_forgets_the_oldest_and_skips_big_messages() -> None:
    cache = CompressedOnce(entries=2)
    for n in range(3):
        cache.compress(b"message %d" % n, WINDOW_BITS)
    cache.compress(b"message 0", WINDOW_BITS)
    assert cache.hits == 0, "message 0 was evicted by the third"
    big = b"x" * (CACHE_MAX_BYTES + 1)
    for _ in range(2):
        assert inflate(cache.compress(big, WINDOW_BITS)) == big
    assert cache.hits == 0


def fresh_deflate(data: bytes, window_bits: int) -> bytes:
    """What a compressor made for this one message writes (without the empty block)."""
    enc = zlib.compressobj(wbits=-window_bits, memLevel=MEM_LEVEL)
    return (enc.compress(data) + enc.flush(zlib.Z_SYNC_FLUSH))[:-4]


def test_the_reused_compressor_writes_what_a_fresh_one_would_and_each_inflates_alone() -> None:
    """deflate_alone keeps one compressor per window size for every message: each
    message must still be compressed alone (a client inflates it with a fresh
    context), byte for byte as a compressor of its own would write it, whatever
    came before it: small patches, repeats, messages longer than the window."""
    rng = random.Random(7)
    words = [
        b'{"op":"replace","path":"/deal/table/',
        b'"value":["2C","KD"]}',
        "Spieler \u00d8".encode(),
    ]
    messages = [PATCH, PATCH, b"", b"x", b"y" * 10_000]
    for _ in range(150):
        n = rng.choice([1, 5, 40, 400])
        messages.append(b"".join(rng.choice(words) + str(rng.random()).encode() for _ in range(n)))
    for window_bits in (WINDOW_BITS, 15):
        for message in messages:
            out = deflate_alone(message, window_bits)
            assert out == fresh_deflate(message, window_bits)
            assert zlib.decompressobj(wbits=-window_bits).decompress(out + b"\x00\x00\xff\xff") == (
                message
            )


def test_an_encoded_frame_is_compressed_alone_and_no_encoder_is_kept() -> None:
    ann, bo = connection(), connection()
    hits = SHARED.hits
    frames = [ext.encode(Frame(Opcode.TEXT, PATCH)) for ext in (ann, bo)]
    assert frames[0].data == frames[1].data and frames[0].rsv1 and frames[1].rsv1
    assert SHARED.hits >= hits + 1
    assert inflate(bytes(frames[0].data)) == PATCH
    assert not hasattr(ann, "encoder") and not hasattr(bo, "encoder"), "idle sockets hold no zlib"
    # Control frames are never compressed.
    ping = ann.encode(Frame(Opcode.PING, b"p"))
    assert ping.data == b"p" and not ping.rsv1


def test_a_decoded_message_leaves_no_decoder_behind() -> None:
    server = connection()
    enc = zlib.compressobj(wbits=-WINDOW_BITS)
    data = enc.compress(PATCH) + enc.flush(zlib.Z_SYNC_FLUSH)
    frame = server.decode(Frame(Opcode.TEXT, data[:-4], rsv1=True))
    assert frame.data == PATCH
    assert not hasattr(server, "decoder")


def test_cached_frames_are_the_frames_websockets_would_write() -> None:
    from app.realtime.frame_cache import FRAMES, UNCOMPRESSED

    for size in (3, 125, 126, 5000, 65536, 70000):
        text = ('{"type":"patch","ops":"' + "é" * size)[:size]
        data = text.encode()
        plain = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])
        assert FRAMES.frame(text, UNCOMPRESSED) == plain
        packed = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[connection()])
        assert FRAMES.frame(text, WINDOW_BITS) == packed
        assert FRAMES.frame(text, WINDOW_BITS) == packed, "and again from the cache"


def test_sockets_are_framed_by_what_they_negotiated() -> None:
    from websockets.extensions.permessage_deflate import PerMessageDeflate

    from app.realtime.frame_cache import OTHER_FRAMING, UNCOMPRESSED, framing_of

    assert framing_of([]) == UNCOMPRESSED
    assert framing_of([connection()]) == WINDOW_BITS
    keeps_context = PerMessageDeflate(False, False, 15, 15)
    assert framing_of([keeps_context]) == OTHER_FRAMING, "a context kept: websockets frames it"
    assert framing_of([connection(), connection()]) == OTHER_FRAMING


def test_short_messages_go_uncompressed() -> None:
    from app.realtime.deflate import COMPRESS_MIN_BYTES
    from app.realtime.frame_cache import FRAMES

    ack = '{"type":"ack","id":"m1","seq":9,"duplicate":false}'
    assert len(ack) < COMPRESS_MIN_BYTES <= len(PATCH)
    frame = connection().encode(Frame(Opcode.TEXT, ack.encode()))
    assert not frame.rsv1 and frame.data == ack.encode()
    assert FRAMES.frame(ack, WINDOW_BITS) == bytes((0x81, len(ack))) + ack.encode()
    assert connection().decode(frame).data == ack.encode(), "a client reads it as it is"


def _payload(frame: bytes) -> bytes:
    size = frame[1] & 0x7F
    return frame[2 + {126: 2, 127: 8}.get(size, 0) :]


def test_a_change_compresses_its_shared_start_once_for_every_audience() -> None:
    from app.realtime.frame_cache import build_frame
    from app.wire import encode_ops, patch_prefix, patch_text

    public = encode_ops(
        [{"op": "replace", "path": "/table", "value": ["2C", "3D", "4H", "5S", "6C", "7D"] * 9}]
    )
    prefix = patch_prefix(41, public)
    audiences = [
        patch_text(prefix, ""),  # spectators
        patch_text(prefix, encode_ops([{"op": "replace", "path": "/hand", "value": ["KS"]}])),
        patch_text(prefix, encode_ops([{"op": "add", "path": "/legal/0", "value": {"x": "é"}}])),
    ]
    frames = [build_frame(audiences[0], WINDOW_BITS)]
    head = prefix.deflated[WINDOW_BITS]  # the shared start, compressed once, kept on it
    frames += [build_frame(text, WINDOW_BITS) for text in audiences[1:]]
    assert list(prefix.deflated) == [WINDOW_BITS] and prefix.deflated[WINDOW_BITS] is head
    for text, frame in zip(audiences, frames):
        assert _payload(frame).startswith(head), "every audience's frame begins with it"
        assert frame[0] == 0xC1, "final text frame, RSV1: compressed"
        assert inflate(_payload(frame)).decode() == text
        decoded = connection().decode(Frame(Opcode.TEXT, _payload(frame), rsv1=True))
        assert decoded.data.decode() == text, "websockets' own client reads it"


def test_a_patch_with_nothing_public_still_reads_back() -> None:
    from app.realtime.frame_cache import UNCOMPRESSED, build_frame
    from app.wire import encode_ops, patch_message

    own = encode_ops([{"op": "replace", "path": "/legal", "value": ["AS", "2C"] * 40}])
    text = patch_message(8, "", own)
    assert inflate(_payload(build_frame(text, WINDOW_BITS))).decode() == text
    plain = build_frame(text, UNCOMPRESSED)
    assert plain[0] == 0x81 and _payload(plain) == text.encode()
