"""The messages around the table: chat, quick reactions, pacing between deals.

None of them touches a match's moves (app/api/social.py handles them apart from the
move path), so they live apart from the core messages of app/wire/messages.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from app.text import check_text
from app.wire.fields import Name
from app.wire.registry import Incoming, Outgoing, client_message, encode, server_message

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
class DealShownMessage(Incoming):
    """This page shows deal ``deal_no`` of match ``match_no`` (issue 47): a seat that had
    not pressed Continue when it started has its first turn timed from now."""

    type: Literal["deal_shown"]
    match_no: int = Field(ge=1, le=100000)
    deal_no: int = Field(ge=1, le=1000)


@client_message
class SpectatorChat(Incoming):
    """The host shows (true) or hides (false) spectators' chat to the players."""

    type: Literal["spectator_chat"]
    on: bool


SOCIAL_MESSAGES = (ChatSay, React, Continue, DealShownMessage, SpectatorChat)
"""Client messages handled by app/api/social.py rather than the move path."""


class ChatEntry(BaseModel):
    """One stored chat line."""

    model_config = ConfigDict(extra="forbid")
    id: int
    seat: int | None
    name: str | None
    text: str
    at: int
    spectator: bool
    """Said by someone watching (``seat`` null), never by a player: clients show it so."""


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


def _line(line: Mapping[str, Any]) -> ChatLine:
    """The ``chat`` of a stored line (its extra keys, such as ``hidden``, stay home)."""
    fields = {k: line[k] for k in ChatEntry.model_fields if k != "spectator"}
    return ChatLine.model_construct(**fields, spectator=line["seat"] is None)


def chat_message(line: Mapping[str, Any]) -> str:
    return encode(_line(line))


def chat_history_message(lines: Sequence[Mapping[str, Any]]) -> str:
    return encode(ChatHistory.model_construct(messages=[_line(ln) for ln in lines]))


def reaction_message(seat: int, emote: str, at: int) -> str:
    return encode(Reaction.model_construct(seat=seat, emote=emote, at=at))
