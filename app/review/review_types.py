"""The shapes of a shared review: as the server processes share it, and as clients
see it (app/review/review.py)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .whatif import Branch


class PublicParticipant(TypedDict):
    id: str
    name: str | None
    seat: int | None


class Participant(PublicParticipant):
    origins: list[str]
    """The server processes its connections are on (dropped when all are gone)."""


class PublicReview(TypedDict):
    """A review as clients see it (the ``review`` message)."""

    id: str
    match_no: int
    deal_no: int
    steps: int
    step: int
    driver: str
    participants: list[PublicParticipant]
    branch: Branch | None
    """The driver's what-if, null on the real line (app/review/whatif.py)."""


class ReviewState(TypedDict):
    """A room's review as the processes share it."""

    id: str
    match_no: int
    deal_no: int
    steps: int
    step: int
    driver: str
    participants: list[Participant]
    branch: NotRequired[Branch | None]


class ReviewValue(TypedDict):
    """The shared value: the review (None: none running) and its version."""

    version: int
    review: ReviewState | None
