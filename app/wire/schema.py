"""The published JSON Schema of the protocol (``GET /api/protocol.schema.json``).

Generated from the registered models themselves, so the schema cannot drift from
what is sent and parsed.  It reads the registries through their module (not names
copied at import), so a registry a test replaces is the one it sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

import app.wire.registry as registry

from .view import View
from .view_schema import type_schema


def protocol_schema(error_codes: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every WebSocket message, from the models.

    ``$defs.ClientMessage`` and ``$defs.ServerMessage`` are the two directions; the
    document itself accepts a message of either.  ``Snapshot.view`` is ``$defs.View``,
    the view's every key (app/wire/view.py); ``error_codes``, when given, are the
    codes an ``error`` may carry (the API knows them: app/api/protocol.py)."""
    defs: dict[str, Any] = {}
    unions: dict[str, Any] = {}
    for name, models in (
        ("ClientMessage", registry.CLIENT_MESSAGES),
        ("ServerMessage", registry.SERVER_MESSAGES),
    ):
        schema = TypeAdapter(registry.message_union(models)).json_schema(
            ref_template="#/$defs/{model}"
        )
        defs.update(schema.pop("$defs", {}))
        unions[name] = schema
    for model in registry.SERVER_MESSAGES:  # their type has a default, but is always sent
        required = defs[model.__name__].setdefault("required", [])
        if "type" not in required:
            required.insert(0, "type")
    defs.update(unions)
    defs["Snapshot"]["properties"]["view"] = type_schema(View, defs)
    if error_codes is not None:
        defs["Error"]["properties"]["code"] = {"enum": sorted(set(error_codes))}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": registry.SCHEMA_PATH,
        "title": "Krypkasino Online WebSocket protocol",
        "description": "Every message of /ws/rooms/{room_id}, both directions: "
        "ClientMessage (client to server) and ServerMessage (server to "
        "client).  See docs/protocol.md.",
        "version": registry.PROTOCOL_VERSION,
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }
