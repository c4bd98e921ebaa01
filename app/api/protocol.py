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

router = APIRouter(tags=["protocol"])


@lru_cache(maxsize=1)
def _schema_bytes() -> bytes:
    return json.dumps(wire.protocol_schema(), indent=1, sort_keys=True).encode()


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
