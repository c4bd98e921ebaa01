"""The ``rating_changed`` domain event (app/core/outbox.py): what a rated match did to
each account's rating, for whoever follows ratings (the clubs and tournaments to
come: a club's ladder, a tournament's seeding).

Stored in the rating's own transaction (app/db/ratings.py, after the match's
``rated_matches`` row), so a match rated twice (its ``match_ended`` event handed over
again, another process catching up) fails on that row and stores no second event:
one event per account and match, exactly.  Bots' seats change no stored rating and
make none.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.outbox import RATING_CHANGED, JsonBody, NewEvent

from .model import Skill
from .ratings import RatedMatch, SeatChange


def skill_body(s: Skill) -> JsonBody:
    """A rating as the event carries it: the model's ``mu`` and ``sigma``, the cautious
    ``rating`` (mu - 3 sigma) the leaderboard ranks by, and whether it is provisional."""
    return {"mu": s.mu, "sigma": s.sigma, "rating": s.ordinal, "provisional": s.provisional}


def rating_events(match: RatedMatch, changes: Sequence[SeatChange]) -> list[NewEvent]:
    """One ``rating_changed`` per account seat of ``match``, in seat order."""
    return [
        NewEvent(
            match.room_id,
            RATING_CHANGED,
            {
                "account_id": c.account_id,
                "players": match.players,
                "match_no": match.match_no,
                "seat": c.seat,
                "before": skill_body(c.before),
                "after": skill_body(c.after),
            },
        )
        for c in sorted(changes, key=lambda c: c.seat)
        if c.account_id is not None
    ]
