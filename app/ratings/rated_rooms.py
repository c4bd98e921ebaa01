"""Who may sit in a rated room: every seat a signed-in account or a bot (issue 34);
a bot account (issue 51) only where the host allows it.

Checked when a seat is taken, before the room changes: a rated room is made only by
a signed-in person, a person joins it only signed in and only once, and partnership
(V1) is not rated: the model ranks each player alone.  Each refusal has its own code
and status (app/api/ratings.py answers them as JSON).
"""

from __future__ import annotations

from collections.abc import Collection


class RatedRefusal(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


ACCOUNT_REQUIRED = "rated_account_required"
ALREADY_SEATED = "rated_already_seated"
TEAMS = "rated_teams"
BOTS_NOT_RATED = "bots_not_rated"


def check_create(signed_in: bool, partnership: bool) -> None:
    """A rated room may be made: by a signed-in person, without partnership (V1)."""
    if not signed_in:
        raise RatedRefusal(
            403, ACCOUNT_REQUIRED, "a rated room takes only signed-in players: sign in first"
        )
    if partnership:
        raise RatedRefusal(
            422, TEAMS, "a rated room is every player for themselves: partnership is not rated"
        )


def check_join(account_id: str | None, seated: Collection[str]) -> None:
    """A person may take a seat of a rated room: signed in, and not seated there yet
    (``seated``: the accounts holding its seats)."""
    if account_id is None:
        raise RatedRefusal(
            403, ACCOUNT_REQUIRED, "a rated room takes only signed-in players: sign in first"
        )
    if account_id in seated:
        raise RatedRefusal(409, ALREADY_SEATED, "you already have a seat in this rated room")


def check_bot(bot_account: bool, bots_allowed: bool) -> None:
    """A bot account (issue 51) sits in a rated room only where the host allows it
    (ALLOW_RATED_BOTS): its games would move people's ratings."""
    if bot_account and not bots_allowed:
        raise RatedRefusal(
            403, BOTS_NOT_RATED, "bot accounts do not play rated rooms on this server"
        )
