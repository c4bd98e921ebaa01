"""Precise exceptions: one per way a rule set, a setup or a move can be wrong.

Every move error carries the code of scenarios/FORMAT.md, which is also the
code the WebSocket ``error`` message uses, so the server never translates.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    code = "bad_input"


class RulesError(EngineError):
    """An unknown rule option, or a combination the rules forbid (R7)."""

    code = "bad_rules"


class SetupError(EngineError):
    """A deal that cannot exist: unknown card, too many copies, bad hand sizes."""

    code = "bad_setup"


class MoveError(EngineError):
    """A proposed move that the rules reject; nothing was changed."""

    code = "illegal_move"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotInHand(MoveError):
    code = "not_in_hand"


class InvalidCapture(MoveError):
    code = "invalid_capture"


class MustCapture(MoveError):
    code = "must_capture"


class NotMaximal(MoveError):
    code = "not_maximal"


class MustSweep(MoveError):
    code = "must_sweep"


class DealOver(MoveError):
    code = "deal_over"
