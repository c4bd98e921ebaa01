"""app/wsdeflate.py: per-message compression that keeps nothing between messages
and compresses a message once for all of its receivers."""

from __future__ import annotations

import zlib

from websockets.frames import Frame, Opcode

from app.wsdeflate import CACHE_MAX_BYTES, SHARED, WINDOW_BITS, CompressedOnce, SharedDeflate

PATCH = b'[{"op":"replace","path":"/seq","value":12},{"op":"add","path":"/log/-","value":"x"}]'


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
