"""The messages of one person playing against bots (issue 33): take back, and a hint.

A ``takeback`` changes the room (an event: its patch reaches everyone); a ``hint``
is answered with a ``hint`` to the asking connection only, as it names a card of
the person's hand.  Apart from the match's core messages (app/wire/messages.py).
"""

from __future__ import annotations

from typing import Literal

from app.wire.registry import Incoming, Outgoing, client_message, encode, server_message


@client_message
class TakeBack(Incoming):
    """Take back my last play (only the one person at a table of bots)."""

    type: Literal["takeback"]


@client_message
class AskHint(Incoming):
    """What would the strong bot play here, from what I know? (only on my turn)"""

    type: Literal["hint"]


@server_message
class Hint(Outgoing):
    """The strong bot's move for the position of ``seq`` (``take`` empty: a creep)."""

    type: Literal["hint"] = "hint"
    seq: int
    card: str
    take: list[str]


ASSIST_MESSAGES = (TakeBack, AskHint)
"""Client messages handled by app/api/assist.py."""


def hint_message(seq: int, card: str, take: list[str]) -> str:
    return encode(Hint.model_construct(seq=seq, card=card, take=take))
