"""``GET /api/protocol.schema.json``: the WebSocket protocol as JSON Schema.

Generated from the message models of ``app/wire/`` once per process, so it is
exactly what this server sends and accepts.  The URL stays; the document's
``version`` changes when a message changes incompatibly.
"""

from __future__ import annotations

import json
from functools import lru_cache

from fastapi import APIRouter
from fastapi.responses import Response

from app import wire
from app.accounts.access import SIGN_IN_REQUIRED
from app.core.errors import ServiceError

from .errors import CODES, move_error_codes, wire_code

router = APIRouter(tags=["protocol"])


SOCKET_CODES = (
    "bad_message",
    "rate_limited",
    "too_many_connections",
    "server_busy",
    "unauthorized",
    "internal",
    "seat_moved",
    SIGN_IN_REQUIRED,
)
"""Codes the WebSocket endpoint and the audiences send of their own (app/api/ws.py,
app/realtime/audience.py), beside the rooms' and the engine's; ``sign_in_required``
on a members-only server (ACCESS=members, issue 34)."""


def error_codes() -> list[str]:
    """Every code an ``error`` message may carry: each refusal of every package as
    clients see it (``wire_code``), each move error of the engine, and the socket's own."""
    refusals = {wire_code(ServiceError(code, "")) for codes in CODES for code in codes}
    return sorted(refusals | move_error_codes() | set(SOCKET_CODES))


@lru_cache(maxsize=1)
def _schema_bytes() -> bytes:
    schema = wire.protocol_schema(error_codes())
    return json.dumps(schema, indent=1, sort_keys=True).encode()


@router.get(
    wire.SCHEMA_PATH,
    response_class=Response,
    responses={
        200: {
            "content": {"application/schema+json": {}},
            "description": "JSON Schema (draft 2020-12) of every WebSocket message",
        }
    },
)
async def protocol_schema() -> Response:
    """Every message of ``/ws/rooms/{room_id}``, both directions, as JSON Schema:
    ``$defs.ClientMessage`` is what a client may send, ``$defs.ServerMessage`` what it
    receives (docs/protocol.md)."""
    return Response(
        _schema_bytes(),
        media_type="application/schema+json",
        headers={"Cache-Control": "public, max-age=3600"},
    )
