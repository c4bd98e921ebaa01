"""Sending an Asset: gzip when the client accepts it, 304 when it already has it.

The caching rules live with the callers (``Cache-Control`` is an argument): versioned
files are immutable, pages and unversioned URLs are revalidated every time.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .assets import Asset

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def json_error(status: int, code: str, message: str) -> JSONResponse:
    """The project's error body, ``{"code", "message"}`` (the API's ``error`` too)."""
    return JSONResponse({"code": code, "message": message}, status_code=status)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (``gzip;q=0`` refuses it)."""
    for item in accept_encoding.split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        return quality > 0
    return False


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    # Weak comparison (RFC 9110 13.1.2): a W/ prefix does not matter here.
    return etag in (tag.strip().removeprefix("W/") for tag in if_none_match.split(","))


def send_asset(
    request: Request,
    asset: Asset,
    cache_control: str,
    headers: Mapping[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    """The response for GET or HEAD of ``asset`` (uvicorn drops the body of a HEAD);
    ``status_code`` other than 200 for the page answering an unknown path (no 304)."""
    gz = asset.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", ""))
    out = {"Cache-Control": cache_control, **(headers or {})}
    if asset.gzipped is not None:
        out["Vary"] = "Accept-Encoding"
    etag = asset.gzip_etag if gz else asset.etag
    out["ETag"] = etag
    if status_code == 200 and _matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=out)
    if gz:
        out["Content-Encoding"] = "gzip"
    body = asset.gzipped if gz else asset.body
    return Response(body, status_code, media_type=asset.content_type, headers=out)
