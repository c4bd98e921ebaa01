"""The protocol's registry: how a WebSocket message is declared, parsed and encoded.

A message type is one pydantic model with a ``type: Literal[...]`` field, registered
with ``@client_message`` or ``@server_message``; the two lists here,
``CLIENT_MESSAGES`` and ``SERVER_MESSAGES``, are what the parser and the published
schema (app/wire/schema.py) are built from, so neither can miss a message.  Kept
apart from the messages themselves so that every message module depends on this one
and none on another.

Server messages are trusted and built with ``model_construct`` (no validation on
the hot path); the tests validate every message they receive against the schema
instead.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
"""Raised when a message changes incompatibly (a field renamed or removed, a meaning
changed); adding a message type or an optional field keeps it."""
SCHEMA_PATH = "/api/protocol.schema.json"

M = TypeVar("M", bound=type[BaseModel])

CLIENT_MESSAGES: list[type[BaseModel]] = []
"""Every message a client may send (registered with ``client_message``)."""
SERVER_MESSAGES: list[type[BaseModel]] = []
"""Every message the server sends (registered with ``server_message``)."""
_adapters: dict[str, TypeAdapter[Any]] = {}


def client_message(model: M) -> M:
    """Register a client-to-server message model (a class decorator)."""
    return _register(CLIENT_MESSAGES, model)


def server_message(model: M) -> M:
    """Register a server-to-client message model (a class decorator)."""
    return _register(SERVER_MESSAGES, model)


def _register(registry: list[type[BaseModel]], model: M) -> M:
    kind = message_type(model)
    if any(message_type(m) == kind for m in registry):
        raise ValueError(f"message type {kind!r} is registered twice")
    registry.append(model)
    _adapters.clear()
    return model


def message_type(model: type[BaseModel]) -> str:
    """The ``type`` a model's messages carry (its field's single literal)."""
    field = model.model_fields.get("type")
    args: tuple[Any, ...] = getattr(field.annotation, "__args__", ()) if field else ()
    if len(args) != 1 or not isinstance(args[0], str):
        raise TypeError(f"{model.__name__} needs a field type: Literal['...']")
    return args[0]


def message_union(registry: list[type[BaseModel]]) -> Any:
    """The discriminated union (on ``type``) of a registry's models."""
    return Annotated[Union[tuple(registry)], Field(discriminator="type")]  # noqa: UP007


def _adapter(direction: str) -> TypeAdapter[Any]:
    adapter = _adapters.get(direction)
    if adapter is None:
        registry = CLIENT_MESSAGES if direction == "client" else SERVER_MESSAGES
        adapter = _adapters[direction] = TypeAdapter(message_union(registry))
    return adapter


def parse_client(text: str | bytes) -> BaseModel:
    """A client's message, validated; raises pydantic.ValidationError."""
    message: BaseModel = _adapter("client").validate_json(text)
    return message


def parse_server(text: str | bytes) -> BaseModel:
    """A server message, validated (for clients written in Python: bots, tests)."""
    message: BaseModel = _adapter("server").validate_json(text)
    return message


def encode(message: BaseModel) -> str:
    """The text frame of a message."""
    return message.model_dump_json()


class Incoming(BaseModel):
    """A client's message: nothing unknown, no coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Outgoing(BaseModel):
    """A server message.  ``additionalProperties: false`` in the schema too, so a field
    sent but not declared fails the tests' validation."""

    model_config = ConfigDict(extra="forbid")
