"""The coach's analysis of a finished deal over HTTP (issue 31; docs/protocol.md).

200 with the analysis once it is made; 202 with its progress while it is queued or
being made (the first request queues it); 404 for no such deal; 409
``deal_not_over`` while the deal is played: an analysis never says anything about
a live deal.  (Elsewhere ``deal_not_over`` is a 404, a review of a deal that is
not there yet; here the deal is there, it is only not over.)  403 ``daily_private``
for a room that played a deal of the day not over yet, to anyone but its player
(``DailyGuard``, app/api/daily_access.py): an analysis names the best move with every
card known.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.core.errors import ErrorCode, ServiceError

from .daily_access import DailyGuard
from .deps import CoachDep
from .errors import error
from .history import PRIVATE, DealNo, MatchNo
from .rooms import RoomId

router = APIRouter(prefix="/api", tags=["history"])

DEAL_NOT_OVER_STATUS = 409


@router.get(
    "/rooms/{room_id}/matches/{match_no}/deals/{deal_no}/analysis",
    response_model=None,
    responses={**PRIVATE, 202: {"description": "queued or running: status, done, total"}},
)
async def analysis(
    coach: CoachDep,
    refused: DailyGuard,
    room_id: str = RoomId,
    match_no: int = MatchNo,
    deal_no: int = DealNo,
) -> JSONResponse:
    """The coach's rating of every play of finished deal n of match m: for each play
    (in record order) the points its player was expected to end the deal with, the
    best move by the same measure, the loss and its label, and the best move in
    hindsight (every card known); per seat the summed loss and the labels.  202
    ``{"status", "done", "total"}`` until it is made."""
    if refused is not None:
        return refused
    try:
        body = await coach.analysis(room_id, match_no, deal_no)
    except ServiceError as exc:
        if exc.code == ErrorCode.DEAL_NOT_OVER:
            return error(DEAL_NOT_OVER_STATUS, exc.code, exc.message)
        raise
    return JSONResponse(body, status_code=200 if body.get("status") == "done" else 202)
