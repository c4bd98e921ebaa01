"""The room service's refusals: a protocol error code, a message, an HTTP status."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused command: nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


UNAVAILABLE = "unavailable"
"""The database did not answer: nothing was stored; the same command (a play with
the same id) may be sent again and is never applied twice."""
BUSY = "busy"
RETRYABLE = frozenset({UNAVAILABLE, BUSY})


def unavailable() -> ServiceError:
    return ServiceError(UNAVAILABLE, "the game's database is not answering; nothing was "
                        "changed, try again (a play with the same id is never played twice)",
                        503)
