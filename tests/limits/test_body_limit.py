"""app/limits/body.py: the body limit counts the bytes the application receives.

The middleware is driven here as uvicorn drives it (ASGI messages in, messages
out) around a small application that reads its body the way FastAPI does; the
real server is in tests/server/test_http_limits.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse

from app.api import errors
from app.limits.body import BodyLimit
from tests.conftest import run_async

LIMIT = 100


async def reads_its_body(scope: Any, receive: Any, send: Any) -> None:
    """Answers 200 with the length of the body it read (BodyTooLarge escapes)."""
    body = await Request(scope, receive).body()
    await JSONResponse({"length": len(body)})(scope, receive, send)


async def ignores_its_body(scope: Any, receive: Any, send: Any) -> None:
    await JSONResponse({"ok": True})(scope, receive, send)


def call(
    app: Any,
    chunks: list[bytes],
    headers: list[tuple[bytes, bytes]],
) -> tuple[list[dict[str, Any]], int]:
    """Run one request through BodyLimit(app); returns (messages sent, chunks read)."""
    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers, "query_string": b""}
    pending = list(chunks)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not pending:
            await asyncio.Event().wait()  # like a client that sends nothing more
        body = pending.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(pending)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    run_async(BodyLimit(app, max_bytes=LIMIT)(scope, receive, send))
    return sent, len(chunks) - len(pending)


def status_headers_body(sent: list[dict[str, Any]]) -> tuple[int, dict[bytes, bytes], Any]:
    start, body = sent[0], b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), json.loads(body)


CHUNKED = [(b"transfer-encoding", b"chunked")]


class Named(BaseModel):
    name: str


api = FastAPI()
errors.install(api, lambda exc: False)


@api.post("/")
async def take_a_name(body: Named) -> dict[str, str]:
    return {"name": body.name}


def test_a_chunked_body_over_the_limit_is_refused_as_soon_as_it_passes_it() -> None:
    sent, read = call(reads_its_body, [b"x" * 60, b"x" * 60, b"x" * 60, b"x" * 60], CHUNKED)
    status, headers, body = status_headers_body(sent)
    assert (status, body["code"]) == (413, "too_large")
    assert headers[b"connection"] == b"close"
    assert read == 2, "nothing read past the chunk that went over"


def test_a_body_of_exactly_the_limit_is_read() -> None:
    sent, _ = call(reads_its_body, [b"x" * 50, b"x" * 50], CHUNKED)
    status, headers, body = status_headers_body(sent)
    assert (status, body) == (200, {"length": LIMIT}) and b"connection" not in headers


def test_a_declared_length_over_the_limit_is_refused_before_the_app_runs() -> None:
    sent, read = call(reads_its_body, [b"x" * 10], [(b"content-length", b"101")])
    assert status_headers_body(sent)[0] == 413 and read == 0


def test_a_content_length_that_lies_is_caught_by_counting() -> None:
    sent, _ = call(reads_its_body, [b"x" * 80, b"x" * 80], [(b"content-length", b"10")])
    assert status_headers_body(sent)[0] == 413


def test_an_answer_before_the_body_was_read_closes_the_connection() -> None:
    sent, read = call(ignores_its_body, [b"x" * 10], CHUNKED)
    status, headers, _ = status_headers_body(sent)
    assert status == 200 and headers[b"connection"] == b"close" and read == 0


def test_a_request_without_a_body_keeps_its_connection() -> None:
    sent, _ = call(ignores_its_body, [], [])
    status, headers, _ = status_headers_body(sent)
    assert status == 200 and b"connection" not in headers


def test_fastapi_answers_the_refusal_with_the_api_error_body() -> None:
    """FastAPI turns any exception while it reads a body into 400, except HTTPException:
    BodyTooLarge is one, so the API's own handler answers 413 too_large."""
    sent, read = call(
        api,
        [b'{"name": "', b"x" * 60, b"x" * 60, b'"}'],
        CHUNKED + [(b"content-type", b"application/json")],
    )
    status, headers, body = status_headers_body(sent)
    assert (status, body["code"]) == (413, "too_large"), body
    assert headers[b"connection"] == b"close" and read == 3
    sent, _ = call(
        api,
        [b'{"name": "Ann"}'],
        [(b"content-type", b"application/json"), (b"content-length", b"15")],
    )
    assert status_headers_body(sent)[:3:2] == (200, {"name": "Ann"})
