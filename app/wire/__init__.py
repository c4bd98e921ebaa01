"""The WebSocket protocol: one typed model per message, both directions, and its encoders.

Every message the server sends is made in this package, and every message a client
may send is parsed here; ``GET /api/protocol.schema.json`` is generated from the
same models (``protocol_schema``), so the published schema cannot drift from what
is sent.  The package depends on pydantic and app/text.py alone, so the room
service may use it.

Split by job (issue 13): ``registry`` (declaring, parsing, encoding), ``fields``
(shared constrained strings), ``messages`` (the match's messages), ``table``
(chat, reactions, pacing), ``assist`` (take-back and hint against bots, issue 33),
``correspondence`` (a vacation, issue 32) and ``schema`` (the published schema).  Everything is
re-exported here, so callers write ``from app import wire; wire.X``.  The message
modules are imported in this order (core, then table) so that the registries keep
the order they have always had.

A new message added to one of these modules needs no line here (issue 48): its
decorator (``client_message``) registers it where it is defined, and its handler may
import it from its module (``from app.wire.table import Resign``); the re-exports are
a convenience of the messages that were here before.
"""

from __future__ import annotations

from app.wire.fields import CardCode, ClientId, Name, ReviewKey
from app.wire.messages import (
    PONG,
    RECONNECT,
    REVIEW_MESSAGES,
    Ack,
    Error,
    Hello,
    Patch,
    PatchOp,
    PatchText,
    Ping,
    Play,
    Pong,
    Presence,
    Reconnect,
    Rematch,
    RematchDecline,
    Review,
    ReviewJoin,
    ReviewLeave,
    ReviewParticipant,
    ReviewPass,
    ReviewStart,
    ReviewStep,
    SharedReview,
    Snapshot,
    Welcome,
    ack_message,
    encode_ops,
    error_message,
    is_snapshot,
    patch_message,
    patch_prefix,
    patch_text,
    presence_message,
    review_message,
    snapshot_message,
    welcome_message,
)
from app.wire.registry import (
    CLIENT_MESSAGES,
    PROTOCOL_VERSION,
    SCHEMA_PATH,
    SERVER_MESSAGES,
    Incoming,
    Outgoing,
    client_message,
    encode,
    message_type,
    message_union,
    parse_client,
    parse_server,
    server_message,
)
from app.wire.schema import protocol_schema
from app.wire.table import (
    EMOTES,
    MAX_CHAT,
    SOCIAL_MESSAGES,
    ChatEntry,
    ChatHistory,
    ChatLine,
    ChatSay,
    ChatText,
    Continue,
    DealShownMessage,
    React,
    Reaction,
    SpectatorChat,
    chat_history_message,
    chat_message,
    reaction_message,
)

from app.wire.assist import ASSIST_MESSAGES, AskHint, Hint, TakeBack, hint_message  # isort: skip
from app.wire.correspondence import Vacation  # isort: skip

__all__ = [
    "ASSIST_MESSAGES",
    "AskHint",
    "Hint",
    "TakeBack",
    "hint_message",
    "Vacation",
    "CLIENT_MESSAGES",
    "EMOTES",
    "MAX_CHAT",
    "PONG",
    "PROTOCOL_VERSION",
    "RECONNECT",
    "REVIEW_MESSAGES",
    "SCHEMA_PATH",
    "SERVER_MESSAGES",
    "SOCIAL_MESSAGES",
    "Ack",
    "CardCode",
    "ChatEntry",
    "ChatHistory",
    "ChatLine",
    "ChatSay",
    "ChatText",
    "ClientId",
    "Continue",
    "DealShownMessage",
    "Error",
    "Hello",
    "Incoming",
    "Name",
    "Outgoing",
    "Patch",
    "PatchOp",
    "Ping",
    "Play",
    "Pong",
    "Presence",
    "React",
    "Reaction",
    "Reconnect",
    "Rematch",
    "RematchDecline",
    "Review",
    "ReviewJoin",
    "ReviewKey",
    "ReviewLeave",
    "ReviewParticipant",
    "ReviewPass",
    "ReviewStart",
    "ReviewStep",
    "SharedReview",
    "Snapshot",
    "SpectatorChat",
    "Welcome",
    "ack_message",
    "chat_history_message",
    "chat_message",
    "client_message",
    "encode",
    "encode_ops",
    "error_message",
    "is_snapshot",
    "message_type",
    "message_union",
    "parse_client",
    "parse_server",
    "PatchText",
    "patch_message",
    "patch_prefix",
    "patch_text",
    "presence_message",
    "protocol_schema",
    "reaction_message",
    "review_message",
    "server_message",
    "snapshot_message",
    "welcome_message",
]
