"""What-ifs in a shared review (issue 31): the driver branches off the real deal.

Whoever drives a review of a finished deal may open a *branch* at the step shown
(``review_branch``), play other legal moves in it (``review_branch_play``), take
the branch's last move back (``review_branch_back``) and return to the real line
(``review_return``, or any ``review_step``).  Everyone in the review follows: the
branch is part of the review's shared value (``app/review/review.py``), so every
connection of the room, on every server process, gets it in the next ``review``
message.  A branch is never a move of the room: it lives in the review's session
state only (the broker's value), and is gone when the review ends.

Every branch move is validated by the engine, replaying the stored deal up to the
branch's step and then the branch's moves: an illegal one is refused with the
engine's own code (``must_sweep``, ``not_maximal``, ...), and changes nothing.
With each position of a branch come the legal moves of the seat to move, each with
the points that seat is expected to end the deal with (``evaluator.py``), worked
out off the event loop from that seat's own information.  Once the deal is over a
branch may show every card: it carries the position as the replay viewer shows it
(``app/rooms/domain/replay.py``), every hand included.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypedDict

from app.broker.values import UNCHANGED
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.engine.deal import Deal, MoveResult
from app.engine.errors import DealOver, EngineError, MoveError
from app.engine.view_types import Position
from app.rooms.domain.record_types import StoredDeal
from app.rooms.domain.replay import opening_deal, position_of

from .errors import ReviewCode
from .evaluator import MoveEvaluator

MAX_STORED = 16
"""Finished deals kept in memory for branching (a finished deal never changes)."""
THINKING = 2
"""What-if positions a process evaluates at once; more wait their turn (each thinks
for at most the evaluator's budget, in a worker thread)."""


class BranchMove(TypedDict):
    card: str
    take: list[str]


class BranchLegal(TypedDict):
    """A legal move of the branch's position, as ``legal`` in the view, plus the
    points its seat is expected to end the deal with after it (lower is better)."""

    card: str
    take: list[str]
    kind: str
    points: int
    sweep: int
    expected: float


class Branch(TypedDict):
    """A what-if: ``moves`` played from the real deal's step ``at``."""

    at: int
    moves: list[BranchMove]
    position: Position
    """The branch's position now, as the replay viewer's (every hand; ``step`` is
    ``at`` plus the branch's moves)."""
    legal: list[BranchLegal]
    """The legal moves of the seat to move (none once the deal is over)."""


def branch_key(branch: Branch | None) -> tuple[int, list[BranchMove]] | None:
    """What a change to a branch was computed from (compared before it is written)."""
    return None if branch is None else (branch["at"], branch["moves"])


def replay(
    stored: StoredDeal, at: int, moves: Sequence[BranchMove]
) -> tuple[Deal, MoveResult | None]:
    """The deal after the real moves up to ``at`` and then ``moves``; the last
    ``MoveResult`` (None at the opening).  An illegal branch move raises ServiceError
    with the engine's code; nothing is changed anywhere."""
    real = stored["moves"]
    if not 0 <= at <= len(real):
        raise ServiceError(ErrorCode.BAD_MESSAGE, f"step must be 0..{len(real)}")
    deal = opening_deal(stored)
    result: MoveResult | None = None
    for m in real[:at]:
        result = deal.apply(m["card"], m.get("take") or [])
    for b in moves:
        if deal.is_over:
            # the engine's own move code (as a refused play in a room says it)
            raise ServiceError(DealOver.code, "the deal is over in this what-if")
        try:
            result = deal.apply(b["card"], b["take"])
        except MoveError as exc:
            raise ServiceError(exc.code, f"not a legal move here: {exc.message}") from exc
        except EngineError as exc:  # not a card at all
            raise ServiceError(ErrorCode.BAD_MESSAGE, str(exc)) from exc
    return deal, result


def seed_of(review_id: str, at: int, moves: Sequence[BranchMove]) -> int:
    """The evaluator's seed: the same position of the same review, the same numbers."""
    text = f"{review_id}:{at}:" + ";".join(f"{m['card']}/{','.join(m['take'])}" for m in moves)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def branch_of(
    stored: StoredDeal,
    at: int,
    moves: list[BranchMove],
    evaluator: MoveEvaluator,
    seed: int,
) -> Branch:
    """The branch with its position and the legal moves' expected points (CPU-bound:
    called off the event loop)."""
    deal, result = replay(stored, at, moves)
    position = position_of(deal, at + len(moves), result)
    legal: list[BranchLegal] = []
    if not deal.is_over and deal.to_move is not None:
        moves_now = deal.legal()
        expected = evaluator(deal.information_set(deal.to_move), moves_now, seed)
        legal = [
            {
                "card": m.card,
                "take": list(m.take),
                "kind": m.kind,
                "points": m.points,
                "sweep": m.sweep,
                "expected": e,
            }
            for m, e in zip(moves_now, expected, strict=True)
        ]
    return {"at": at, "moves": moves, "position": position, "legal": legal}


class StoredDeals:
    """Finished deals by (room, match, deal), read once from the archive's store."""

    def __init__(self, read: Any) -> None:
        self.read = read
        """``HistoryStore.deal_record``: the stored deal, None while it is not over."""
        self.cache: dict[tuple[str, int, int], StoredDeal] = {}

    async def get(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal:
        key = (room_id, match_no, deal_no)
        found = self.cache.get(key)
        if found is None:
            try:
                found = await self.read(room_id, match_no, deal_no)
            except Unavailable as exc:
                raise unavailable() from exc
            if found is None:
                raise ServiceError(ErrorCode.DEAL_NOT_OVER, "that deal is not over")
            if len(self.cache) >= MAX_STORED:
                self.cache.pop(next(iter(self.cache)))
            self.cache[key] = found
        return found


async def compute(
    stored: StoredDeal,
    review_id: str,
    at: int,
    moves: list[BranchMove],
    evaluator: MoveEvaluator,
) -> Branch:
    """``branch_of`` in a worker thread, so the event loop serves on meanwhile."""
    return await asyncio.to_thread(
        branch_of, stored, at, moves, evaluator, seed_of(review_id, at, moves)
    )


class Host(Protocol):
    """What the branch messages need of the shared review (``review.Reviews``)."""

    def participant_of(self, room_id: str, sink: Any) -> str | None: ...

    async def current(self, room_id: str) -> Any: ...

    async def change(self, room_id: str, change: Callable[[Any], Any]) -> tuple[bool, Any]: ...


def check_driver(review: Any, pid: str | None) -> None:
    if review is None:
        raise ServiceError(ReviewCode.NO_REVIEW, "no review is running in this room")
    if pid is None or review["driver"] != pid:
        raise ServiceError(ReviewCode.NOT_DRIVER, "only the review's driver can do that")


class WhatIfs:
    """The driver's branch messages (the module doc)."""

    def __init__(self, host: Host, read_stored: Any, evaluator: MoveEvaluator) -> None:
        self.host = host
        self.deals = StoredDeals(read_stored)
        self.evaluator = evaluator
        self.thinking = asyncio.Semaphore(THINKING)

    async def open(self, room_id: str, sink: Any) -> None:
        """``review_branch``: a what-if at the step shown (no moves yet); while one is
        open, nothing changes."""
        pid, review = await self._driving(room_id, sink)
        if review.get("branch") is not None:
            return
        await self._branch(room_id, pid, review, review["step"], [])

    async def play(self, room_id: str, sink: Any, card: str, take: Sequence[str]) -> None:
        """``review_branch_play``: one more move in the branch, if the engine allows it."""
        pid, review = await self._driving(room_id, sink)
        branch = review.get("branch")
        if branch is None:
            raise ServiceError(ReviewCode.NO_BRANCH, "open a what-if first (review_branch)")
        moves = [*branch["moves"], {"card": card, "take": sorted(take)}]
        await self._branch(room_id, pid, review, branch["at"], moves)

    async def back(self, room_id: str, sink: Any) -> None:
        """``review_branch_back``: the branch's last move taken back."""
        pid, review = await self._driving(room_id, sink)
        branch = review.get("branch")
        if branch is None:
            raise ServiceError(ReviewCode.NO_BRANCH, "no what-if is open")
        if branch["moves"]:
            await self._branch(room_id, pid, review, branch["at"], branch["moves"][:-1])

    async def leave(self, room_id: str, sink: Any) -> None:
        """``review_return``: back to the real line, at the step the branch left it."""
        pid = self.host.participant_of(room_id, sink)

        def change(review: Any) -> Any:
            check_driver(review, pid)
            if review.get("branch") is None:
                return UNCHANGED
            return {**review, "branch": None}

        await self.host.change(room_id, change)

    async def _driving(self, room_id: str, sink: Any) -> tuple[str, Any]:
        pid = self.host.participant_of(room_id, sink)
        review = await self.host.current(room_id)
        check_driver(review, pid)
        assert pid is not None
        return pid, review

    async def _branch(
        self, room_id: str, pid: str, seen: Any, at: int, moves: list[BranchMove]
    ) -> None:
        stored = await self.deals.get(room_id, seen["match_no"], seen["deal_no"])
        async with self.thinking:
            branch = await compute(stored, seen["id"], at, moves, self.evaluator)
        was = branch_key(seen.get("branch"))

        def change(review: Any) -> Any:
            check_driver(review, pid)
            if review["id"] != seen["id"] or branch_key(review.get("branch")) != was:
                raise ServiceError(ErrorCode.BUSY, "the review moved on meanwhile; try again")
            return {**review, "branch": branch}

        await self.host.change(room_id, change)
