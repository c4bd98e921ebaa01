"""The tournaments' own refusals (issue 49); the shared ones are ``app.core.errors``'s.

Wire codes (docs/protocol.md, "Tournaments"): the strings never change."""

from __future__ import annotations

from enum import StrEnum

from app.core.errors import ServiceError


class TournamentCode(StrEnum):
    BAD_TOURNAMENT = "bad_tournament"
    """A plan that cannot be run: its message says which field and why."""
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    TOURNAMENT_FORBIDDEN = "tournament_forbidden"
    """Only the event's organiser (or, for a club's event, the club's organisers)."""
    NOT_REGISTERING = "not_registering"
    """The event has started (and takes nobody late), finished or was cancelled."""
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    TOURNAMENT_FULL = "tournament_full"
    NOT_INVITED = "not_invited"
    """An invite-only event's entrants are the people its organiser named."""
    TOO_MANY_ENTRIES = "too_many_entries"
    """The account is entered in as many unfinished events as it may be."""
    CLUB_EVENT = "club_event"
    """A club-only event's entrants are the club's members."""
    TOO_FEW_ENTRANTS = "too_few_entrants"
    TOO_MANY_TOURNAMENTS = "too_many_tournaments"
    """The account organises as many unfinished events as it may."""
    BOARD_SEALED = "board_sealed"
    """A duplicate board's record, replay, analysis or tables stay closed until every
    table of the event has played it."""
    TOURNAMENT_RATE_LIMITED = "tournament_rate_limited"


class TournamentRefused(ServiceError):
    """A tournament's refusal: one of ``TournamentCode`` and a message for people."""

    def __init__(self, code: TournamentCode, message: str) -> None:
        super().__init__(code, message)
