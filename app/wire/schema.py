"""The published JSON Schema of the protocol (``GET /api/protocol.schema.json``).

Generated from the registered models themselves, so the schema cannot drift from
what is sent and parsed.  It reads the registries through their module (not names
copied at import), so a registry a test replaces is the one it sees.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter

import app.wire.registry as registry
from app.core.json import JsonObject, JsonValue
from app.engine.view_types import Position

from .view import View
from .view_schema import type_schema


def _object(value: JsonValue) -> JsonObject:
    """A part of the schema that must be an object (pydantic wrote it so)."""
    if not isinstance(value, dict):
        raise TypeError(f"not a JSON Schema object: {value!r}")
    return value


def _properties(defs: JsonObject, name: str) -> JsonObject:
    return _object(_object(defs[name])["properties"])


def protocol_schema(error_codes: Sequence[str] | None = None) -> JsonObject:
    """The JSON Schema (draft 2020-12) of every WebSocket message, from the models.

    ``$defs.ClientMessage`` and ``$defs.ServerMessage`` are the two directions; the
    document itself accepts a message of either.  ``Snapshot.view`` is ``$defs.View``,
    the view's every key (app/wire/view.py), and a what-if's ``position`` is
    ``$defs.Position`` (app/engine/view_types.py); ``error_codes``, when given, are the
    codes an ``error`` may carry (the API knows them: app/api/protocol.py)."""
    defs: JsonObject = {}
    unions: JsonObject = {}
    for name, models in (
        ("ClientMessage", registry.CLIENT_MESSAGES),
        ("ServerMessage", registry.SERVER_MESSAGES),
    ):
        schema: JsonObject = TypeAdapter(registry.message_union(models)).json_schema(
            ref_template="#/$defs/{model}"
        )
        defs.update(_object(schema.pop("$defs", {})))
        unions[name] = schema
    for model in registry.SERVER_MESSAGES:  # their type has a default, but is always sent
        required = _object(defs[model.__name__]).setdefault("required", [])
        if isinstance(required, list) and "type" not in required:
            required.insert(0, "type")
    defs.update(unions)
    _properties(defs, "Snapshot")["view"] = type_schema(View, defs)
    _properties(defs, "WhatIf")["position"] = type_schema(Position, defs)
    if error_codes is not None:
        codes: list[JsonValue] = [*sorted(set(error_codes))]
        _properties(defs, "Error")["code"] = {"enum": codes}
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
