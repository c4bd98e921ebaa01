"""The shared review's own refusals (issues 11 and 31); the shared ones are
``app.core.errors``'s.

Wire codes (docs/protocol.md): the strings never change."""

from __future__ import annotations

from enum import StrEnum


class ReviewCode(StrEnum):
    REVIEW_RUNNING = "review_running"
    NO_REVIEW = "no_review"
    NOT_DRIVER = "not_driver"
    NOT_IN_REVIEW = "not_in_review"
    NO_BRANCH = "no_branch"
    """A what-if move (or take-back) with no what-if open in the review (issue 31)."""
