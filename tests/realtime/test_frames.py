"""The server's own reader of client text frames (app/realtime/frames.py) against the frames
the websockets library writes as a client: it reads what the library would, hands the
library every control frame whole, and gives up, byte for byte, on anything else."""

from __future__ import annotations

import random

import pytest
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Close, Frame, Opcode

from app.realtime.frames import ClientFrames

MAX = 64 * 1024


def client_deflate():  # type: ignore[no-untyped-def]
    """A client's permessage-deflate with no context takeover (as the server asks)."""
    factory = ClientPerMessageDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=12,
        client_max_window_bits=12,
    )
    return factory.process_response_params(
        [
            ("server_no_context_takeover", None),
            ("client_no_context_takeover", None),
            ("server_max_window_bits", "12"),
            ("client_max_window_bits", "12"),
        ],
        [],
    )


def text_frame(text: str, compress: bool = False) -> bytes:
    frame = Frame(Opcode.TEXT, text.encode())
    extensions = [client_deflate()] if compress else []
    return frame.serialize(mask=True, extensions=extensions)


MESSAGES = [
    '{"type":"play","id":"a1","card":"7H","take":[]}',
    '{"type":"chat","text":"hej då, åäö ♠"}',
    '{"type":"ping"}',
    "x" * 200,
    "y" * 70000,  # over 65535 bytes: a 64-bit length
    "z" * 300,  # a 16-bit length
]


@pytest.mark.parametrize("compress", [False, True])
def test_text_frames_read_back_whole_however_the_bytes_are_split(compress: bool) -> None:
    messages = [m for m in MESSAGES if len(m) <= MAX or compress]
    stream = b"".join(text_frame(m, compress) for m in messages)
    for seed in range(5):
        rng = random.Random(seed)
        reader = ClientFrames(MAX if not compress else 2**17, 12 if compress else None)
        got: list[str | bytes] = []
        pos = 0
        while pos < len(stream):
            step = rng.choice([1, 2, 3, 7, 50, 1000, len(stream)])
            received = reader.feed(stream[pos : pos + step])
            assert received.rest is None
            got += received.items
            pos += step
        assert got == messages
        assert reader.take_buffer() == b"", "nothing left over between frames"


def test_control_frames_go_to_the_library_whole_and_in_order() -> None:
    ping = Frame(Opcode.PING, b"1234").serialize(mask=True, extensions=[])
    pong = Frame(Opcode.PONG, b"abcd").serialize(mask=True, extensions=[])
    stream = text_frame("one") + pong + text_frame("two") + ping
    received = ClientFrames(MAX, None).feed(stream)
    assert received.items == ["one", pong, "two", ping]
    assert received.rest is None


@pytest.mark.parametrize(
    "frame",
    [
        Frame(Opcode.CLOSE, Close(1000, "bye").serialize()).serialize(mask=True, extensions=[]),
        Frame(Opcode.BINARY, b"\x00\x01").serialize(mask=True, extensions=[]),
        Frame(Opcode.TEXT, b"part", fin=False).serialize(mask=True, extensions=[]),
        Frame(Opcode.TEXT, b"\xff\xfe not utf-8").serialize(mask=True, extensions=[]),
        Frame(Opcode.TEXT, b"unmasked").serialize(mask=False, extensions=[]),
        bytes([text_frame("rsv2")[0] | 0x20]) + text_frame("rsv2")[1:],
        text_frame("compressed, but compression was not negotiated", compress=True),
        Frame(Opcode.TEXT, b"x" * (MAX + 1)).serialize(mask=True, extensions=[]),
    ],
    ids=["close", "binary", "fragment", "bad-utf8", "unmasked", "rsv2", "rsv1", "too-big"],
)
def test_anything_else_is_left_to_the_library_from_that_frame_on(frame: bytes) -> None:
    after = text_frame("after")
    reader = ClientFrames(MAX, None)
    received = reader.feed(text_frame("before") + frame + after)
    assert received.items == ["before"]
    assert received.rest == frame + after, "the library gets the rest, byte for byte"


def test_a_message_that_inflates_past_the_limit_is_left_to_the_library() -> None:
    bomb = text_frame("a" * (MAX + 1), compress=True)
    assert len(bomb) < MAX, "small on the wire"
    received = ClientFrames(MAX, 12).feed(bomb)
    assert received.items == [] and received.rest == bomb


def test_a_frame_announced_too_big_is_left_to_the_library_before_it_arrives() -> None:
    """Only its header has come: the reader must not wait for (and buffer) the payload."""
    frame = Frame(Opcode.TEXT, b"x" * (MAX + 10)).serialize(mask=True, extensions=[])
    received = ClientFrames(MAX, None).feed(frame[:14])
    assert received.rest == frame[:14]
