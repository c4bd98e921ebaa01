"""The public room list's cursor: opaque to clients, refused when it is not ours."""

from __future__ import annotations

import pytest

from app.core.errors import ServiceError
from app.social.public_rooms import decode_cursor, encode_cursor


def test_a_cursor_round_trips() -> None:
    room_id = "0123456789abcdef" * 2
    assert decode_cursor(encode_cursor(1_764_540_000_123_456, room_id)) == (
        1_764_540_000_123_456,
        room_id,
    )


@pytest.mark.parametrize(
    "bad", ["", "nonsense", "bm9wZQ", encode_cursor(1, "x" * 32), encode_cursor(1, "ab")]
)
def test_a_foreign_cursor_is_refused(bad: str) -> None:
    with pytest.raises(ServiceError) as err:
        decode_cursor(bad)
    assert err.value.code == "bad_request"
