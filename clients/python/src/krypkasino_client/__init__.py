"""A client for Krypkasino Online servers: bring your own bot.

A bot is a function from the seat's ``View`` to a ``Move``; ``play`` takes a seat and
plays a whole match with it::

    import random
    from krypkasino_client import play

    summary = play("http://127.0.0.1:8000", "ABCD", "Randy",
                   lambda view: random.choice(view.legal).move)

The protocol it speaks is docs/protocol.md of the server's repository.
"""

from .bot import Bot, BotError, Summary
from .http import Api, ApiError, RoomCreated, RoomSummary, SeatTaken, websocket_url
from .listen import listen
from .patch import PatchError, apply_patch
from .runner import arguments, play, run_command_line
from .stream import EventStream
from .turns import Chooser
from .version import __version__
from .view import Between, LegalMove, Move, Play, Score, Seat, View

__all__ = [
    "Api",
    "ApiError",
    "Between",
    "Bot",
    "BotError",
    "EventStream",
    "Chooser",
    "LegalMove",
    "Move",
    "PatchError",
    "Play",
    "RoomCreated",
    "RoomSummary",
    "Score",
    "Seat",
    "SeatTaken",
    "Summary",
    "View",
    "__version__",
    "apply_patch",
    "arguments",
    "listen",
    "play",
    "run_command_line",
    "websocket_url",
]
