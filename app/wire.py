"""The WebSocket protocol: one typed model per message, both directions, and its encoders.

Every message the server sends is made here, and every message a client may send
is parsed here; ``GET /api/protocol.schema.json`` is generated from the same
models (``protocol_schema``), so the published schema cannot drift from what is
sent.  The module depends on pydantic alone, so the room service may use it.

Two lists, ``CLIENT_MESSAGES`` and ``SERVER_MESSAGES``, are the registry: a new
message type is one model with a ``type: Literal[...]`` field, registered with
``@client_message`` or ``@server_message`` (the parser and the schema pick it up).

Server messages are trusted and built with ``model_construct`` (no validation on
the hot path); the tests validate every message they receive against the schema
instead.  A patch is the one message not encoded from a model: its operations are
serialised once per change (``encode_ops``) and joined into the same bytes for
every receiver (``patch_message``); tests/test_wire.py checks it against the model.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from app.text import check_text

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


def _union(registry: list[type[BaseModel]]) -> Any:
    return Annotated[Union[tuple(registry)], Field(discriminator="type")]  # noqa: UP007


def _adapter(direction: str) -> TypeAdapter[Any]:
    adapter = _adapters.get(direction)
    if adapter is None:
        registry = CLIENT_MESSAGES if direction == "client" else SERVER_MESSAGES
        adapter = _adapters[direction] = TypeAdapter(_union(registry))
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


# ------------------------------------------------------------------ shared types

Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(check_text),
]
"""A player's name: stripped, 1..40 characters, none of them refused (app/text.py)."""
CardCode = Annotated[str, StringConstraints(min_length=2, max_length=3)]
ClientId = Annotated[str, StringConstraints(pattern=r"^[\x21-\x7e]{1,64}$")]
"""A play's id, stored with the move: printable ASCII without spaces, 1..64 characters
(no NUL or other character a database could refuse)."""
ReviewKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A browser tab's secret review key: the same tab (a reload too) is the same participant."""


class Incoming(BaseModel):
    """A client's message: nothing unknown, no coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Outgoing(BaseModel):
    """A server message.  ``additionalProperties: false`` in the schema too, so a field
    sent but not declared fails the tests' validation."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------- client to server


@client_message
class Hello(Incoming):
    """First and once: a seat's token (none: a spectator), and the seq of the view the
    client holds after a reconnect."""

    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=128)] | None = None
    last_seq: int | None = Field(default=None, ge=0)


@client_message
class Play(Incoming):
    """Play ``card``; ``take`` empty or missing: creep.  A resent ``id`` never plays twice."""

    type: Literal["play"]
    id: ClientId
    card: CardCode
    take: list[CardCode] | None = Field(default=None, max_length=104)


@client_message
class Rematch(Incoming):
    """A seated player asks for a new match once the room is finished."""

    type: Literal["rematch"]


@client_message
class Ping(Incoming):
    type: Literal["ping"]


@client_message
class ReviewStart(Incoming):
    """Start a shared review of a finished deal (app/rooms/review.py)."""

    type: Literal["review_start"]
    match_no: int = Field(ge=1, le=100000)
    deal_no: int = Field(ge=1, le=1000)
    key: ReviewKey
    name: Name | None = None


@client_message
class ReviewJoin(Incoming):
    type: Literal["review_join"]
    key: ReviewKey
    name: Name | None = None


@client_message
class ReviewStep(Incoming):
    type: Literal["review_step"]
    step: int = Field(ge=0, le=100000)


@client_message
class ReviewPass(Incoming):
    type: Literal["review_pass"]
    to: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]


@client_message
class ReviewLeave(Incoming):
    type: Literal["review_leave"]


REVIEW_MESSAGES = (ReviewStart, ReviewJoin, ReviewStep, ReviewPass, ReviewLeave)


# ---------------------------------------------------------- server to client


@server_message
class Welcome(Outgoing):
    """The answer to hello, before anything else."""

    type: Literal["welcome"] = "welcome"
    you: int | None
    seq: int


@server_message
class Snapshot(Outgoing):
    """The whole view of this connection (docs/protocol.md, "The view")."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    view: dict[str, Any]


class PatchOp(BaseModel):
    """One RFC 6902 operation (the server sends add, remove and replace)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: str
    value: Any = None
    from_: str | None = Field(default=None, alias="from")


@server_message
class Patch(Outgoing):
    """An RFC 6902 patch turning the view of ``seq`` - 1 into that of ``seq``."""

    type: Literal["patch"] = "patch"
    seq: int
    ops: list[PatchOp]


@server_message
class Presence(Outgoing):
    """Who is online, by seat.  Never advances seq."""

    type: Literal["presence"] = "presence"
    connected: list[bool]
    watching: int = 0
    """How many spectators the room has (issue 12: players see who is watching)."""


@server_message
class Error(Outgoing):
    """A refusal: nothing changed.  ``reason`` only with the code ``seat_moved``."""

    type: Literal["error"] = "error"
    id: str | None
    code: str
    message: str
    reason: Literal["transfer", "reclaim"] | None = None
    """Sent only when set (``error_message`` leaves it out otherwise)."""


@server_message
class Ack(Outgoing):
    """A play is stored (or was already, for a resent id); its patch comes too."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int
    duplicate: bool


@server_message
class Pong(Outgoing):
    type: Literal["pong"] = "pong"


@server_message
class Reconnect(Outgoing):
    """The server is shutting down: connect again."""

    type: Literal["reconnect"] = "reconnect"


class ReviewParticipant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str | None
    seat: int | None


class SharedReview(BaseModel):
    """A room's shared review as clients see it (app/rooms/review.py)."""

    model_config = ConfigDict(extra="forbid")
    id: str
    match_no: int
    deal_no: int
    steps: int
    step: int
    driver: str
    participants: list[ReviewParticipant]


@server_message
class Review(Outgoing):
    """The room's shared review as it now stands; ``me`` is this connection's id in it."""

    type: Literal["review"] = "review"
    version: int
    review: SharedReview | None
    me: str | None


# --------------------------------------------- at the table: chat, reactions, pacing

MAX_CHAT = 300
"""Characters in one chat line (issue 12)."""
EMOTES = ("\U0001f44d", "\U0001f44f", "\U0001f62e", "\U0001f602", "\U0001f605", "\U0001f64f")
"""The quick reactions, in a fixed order (the broker carries a reaction as its index)."""
ChatText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_CHAT),
    AfterValidator(check_text),
]
"""A chat line: 1..300 characters once stripped, no control characters (so one line)."""


@client_message
class ChatSay(Incoming):
    """Say a line to the room (players and spectators)."""

    type: Literal["chat"]
    text: ChatText
    name: Name | None = None
    """A spectator's display name (a player speaks under their seat's name)."""


@client_message
class React(Incoming):
    """Show an emote over my seat for a moment (players only)."""

    type: Literal["react"]
    emote: Literal[EMOTES]  # type: ignore[valid-type]


@client_message
class Continue(Incoming):
    """Between deals: I have seen the deal's end; the next one may start."""

    type: Literal["continue"]


@client_message
class SpectatorChat(Incoming):
    """The host shows (true) or hides (false) spectators' chat to the players."""

    type: Literal["spectator_chat"]
    on: bool


SOCIAL_MESSAGES = (ChatSay, React, Continue, SpectatorChat)
"""Client messages handled by app/api/social.py rather than the move path."""


class ChatEntry(BaseModel):
    """One stored chat line."""

    model_config = ConfigDict(extra="forbid")
    id: int
    seat: int | None
    name: str | None
    text: str
    at: int


@server_message
class ChatLine(ChatEntry):
    """``chat``: one line, to every connection that may read it."""

    type: Literal["chat"] = "chat"


@server_message
class ChatHistory(Outgoing):
    """``chat_history``: the newest lines, right after the welcome."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[ChatLine]


@server_message
class Reaction(Outgoing):
    """``reaction``: an emote to show over a seat for a moment."""

    type: Literal["reaction"] = "reaction"
    seat: int
    emote: Literal[EMOTES]  # type: ignore[valid-type]
    at: int


# ---------------------------------------------------------------- encoders


def welcome_message(you: int | None, seq: int) -> str:
    return encode(Welcome.model_construct(you=you, seq=seq))


def snapshot_message(seq: int, view: dict[str, Any]) -> str:
    return encode(Snapshot.model_construct(seq=seq, view=view))


def presence_message(connected: list[bool], watching: int = 0) -> str:
    return encode(Presence.model_construct(connected=connected, watching=watching))


def error_message(
    code: str, message: str, msg_id: str | None = None, reason: str | None = None
) -> str:
    error = Error.model_construct(id=msg_id, code=code, message=message, reason=reason)
    return error.model_dump_json(exclude={"reason"} if reason is None else None)


def ack_message(msg_id: str, seq: int, duplicate: bool) -> str:
    return encode(Ack.model_construct(id=msg_id, seq=seq, duplicate=duplicate))


def review_message(version: int, review: dict[str, Any] | None, me: str | None) -> str:
    """``review`` as ``app/rooms/review.public`` gives it."""
    shared = SharedReview.model_validate(review) if review is not None else None
    return encode(Review.model_construct(version=version, review=shared, me=me))


def chat_message(line: dict[str, Any]) -> str:
    """``chat`` for a stored line (its extra keys, such as ``hidden``, stay home)."""
    return encode(ChatLine.model_construct(**{k: line[k] for k in ChatEntry.model_fields}))


def chat_history_message(lines: list[dict[str, Any]]) -> str:
    return encode(
        ChatHistory.model_construct(
            messages=[
                ChatLine.model_construct(**{k: ln[k] for k in ChatEntry.model_fields})
                for ln in lines
            ]
        )
    )


def reaction_message(seat: int, emote: str, at: int) -> str:
    return encode(Reaction.model_construct(seat=seat, emote=emote, at=at))


PONG = encode(Pong())
RECONNECT = encode(Reconnect())


def encode_ops(ops: list[dict[str, Any]]) -> str:
    """RFC 6902 operations as the inside of a JSON array (no brackets), so that the
    public part of a change, serialised once, can be joined with each audience's own."""
    return json.dumps(ops, separators=(",", ":"), ensure_ascii=False)[1:-1]


def patch_message(seq: int, *fragments: str) -> str:
    """A ``Patch`` from fragments of ``encode_ops``: the fast path that lets every
    receiver get the same pre-serialised operations (the same bytes, no re-encoding)."""
    ops = ",".join(f for f in fragments if f)
    return f'{{"type":"patch","seq":{seq},"ops":[{ops}]}}'


def is_snapshot(text: str) -> bool:
    """Whether an encoded message is a snapshot (``type`` is encoded first)."""
    return text.startswith('{"type":"snapshot"')


# ------------------------------------------------------------------ schema


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every WebSocket message, from the models.

    ``$defs.ClientMessage`` and ``$defs.ServerMessage`` are the two directions; the
    document itself accepts a message of either."""
    defs: dict[str, Any] = {}
    unions: dict[str, Any] = {}
    for name, registry in (("ClientMessage", CLIENT_MESSAGES), ("ServerMessage", SERVER_MESSAGES)):
        schema = TypeAdapter(_union(registry)).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        unions[name] = schema
    for model in SERVER_MESSAGES:  # their type has a default, but is always sent
        required = defs[model.__name__].setdefault("required", [])
        if "type" not in required:
            required.insert(0, "type")
    defs.update(unions)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_PATH,
        "title": "Krypkasino Online WebSocket protocol",
        "description": "Every message of /ws/rooms/{room_id}, both directions: "
        "ClientMessage (client to server) and ServerMessage (server to "
        "client).  See docs/protocol.md.",
        "version": PROTOCOL_VERSION,
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }
