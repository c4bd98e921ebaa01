"""Accept-Encoding as browsers, proxies and careful clients write it."""

from __future__ import annotations

import pytest

from app.web.http import accepts_gzip


@pytest.mark.parametrize(
    "header",
    [
        "gzip",
        "gzip, deflate, br, zstd",
        "br;q=1.0, gzip;q=0.8",
        "GZIP",
        "*",
        "identity, *;q=0.5",
        "x-gzip",
    ],
)
def test_gzip_accepted(header: str) -> None:
    assert accepts_gzip(header)


@pytest.mark.parametrize(
    "header", ["", "identity", "br", "gzip;q=0", "gzip; q=0.0, br", "deflate, gzip;q=bad"]
)
def test_gzip_refused(header: str) -> None:
    assert not accepts_gzip(header)
