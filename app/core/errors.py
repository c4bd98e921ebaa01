"""Refusals and storage failures every package shares.

A refusal is a ``ServiceError``: a code and a message for people, nothing more.  The
service that refuses says *what* went wrong; only ``app/api`` decides how it looks on
the wire (``app/api/errors.py`` maps each code to an HTTP status).  The codes here are
the ones any package may refuse with; each feature owns the codes only it raises, in
its own ``errors`` module (the rooms' in ``app/rooms/domain/errors.py``, pairing's in
``app/pairing/errors.py``...), so a new feature adds its codes without touching the
others'.  The strings are the wire's (docs/protocol.md): they never change.

The two ways a store can fail live here too, since every feature's store raises them:
``Unavailable`` (the database did not answer: nothing is known to be stored, the
caller may retry) and ``Conflict`` (another writer got there first: a unique key, or a
room advanced by another process).
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The codes every package may refuse with."""

    BAD_REQUEST = "bad_request"
    BAD_MESSAGE = "bad_message"
    NOT_FOUND = "not_found"
    UNAUTHORIZED = "unauthorized"
    UNAVAILABLE = "unavailable"
    """The database (or Redis) did not answer: nothing was stored; the same command
    (a play with the same id) may be sent again and is never applied twice."""
    BUSY = "busy"
    INTERNAL = "internal"
    NAME_RESERVED = "name_reserved"
    """A person's name that would pass them off as a bot (app/names.py) or, for a
    spectator's chat, as a player at the table (issue 34): refused wherever a person
    names themselves (a seat, a pairing ticket, a spectator's chat line)."""
    DEAL_NOT_OVER = "deal_not_over"
    """A finished deal's record asked for while the deal is still played: said by every
    reader of deal records (the review, the coach, "play this deal yourself")."""


class ServiceError(Exception):
    """A refused command: a domain error code and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Unavailable(Exception):
    """The database could not be reached or did not answer in time."""


class Conflict(Exception):
    """Another writer got there first (a unique key taken, a room advanced by another
    process); reload and try again, or say so."""


UNAVAILABLE = ErrorCode.UNAVAILABLE
BUSY = ErrorCode.BUSY
RETRYABLE = frozenset({UNAVAILABLE, BUSY})
"""Codes that say "nothing happened, try again": a timer retries on them."""


def unavailable() -> ServiceError:
    """The refusal of a command whose store was away (``Unavailable``)."""
    return ServiceError(
        UNAVAILABLE,
        "the game's database is not answering; nothing was "
        "changed, try again (a play with the same id is never played twice)",
    )
