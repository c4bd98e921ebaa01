"""The clubs' own refusals (issue 49); the shared ones are ``app.core.errors``'s.

Wire codes (docs/protocol.md, "Clubs"): the strings never change."""

from __future__ import annotations

from enum import StrEnum

from app.core.errors import ServiceError


class ClubCode(StrEnum):
    BAD_CLUB_NAME = "bad_club_name"
    """A name of 3 to 40 characters of text: no control characters, no markup, no
    bidirectional controls."""
    BAD_CLUB_DESCRIPTION = "bad_club_description"
    """At most 500 characters of plain text (line breaks allowed)."""
    CLUB_NAME_TAKEN = "club_name_taken"
    """Another club has this name or one that looks like it (the same skeleton,
    app/names.py: "Сlub" with a Cyrillic С is "Club")."""
    NO_SUCH_CLUB = "no_such_club"
    CLUB_CLOSED = "club_closed"
    """The club was closed by its owner: nothing can be joined or changed."""
    NOT_CLUB_MEMBER = "not_club_member"
    """The account named is not a member of this club (or has asked nothing)."""
    CLUB_FORBIDDEN = "club_forbidden"
    """The signed-in account's role (or none) does not allow this."""
    NO_CLUB_REQUEST = "no_club_request"
    """The account named has no pending join request to this club."""
    ALREADY_CLUB_MEMBER = "already_club_member"
    CLUB_REQUEST_PENDING = "club_request_pending"
    """This account has asked to join already; the organisers have not answered yet."""
    BAD_INVITE = "bad_invite"
    """No club's current invite link: guessed, revoked, renewed or expired."""
    REMOVED_FROM_CLUB = "removed_from_club"
    """A member the club removed cannot come back through the invite link (a join
    request, which the organisers answer, still can)."""
    OWNER_MUST_HAND_OVER = "owner_must_hand_over"
    """The owner leaves only after handing ownership to another member (or closes the
    club)."""
    TOO_MANY_CLUBS_OWNED = "too_many_clubs_owned"
    TOO_MANY_CLUBS_JOINED = "too_many_clubs_joined"
    CLUB_FULL = "club_full"
    TOO_MANY_CLUB_REQUESTS = "too_many_club_requests"
    """The club has as many pending requests as it takes, or this account has as many
    pending as it may."""
    CLUB_MEMBERS_ONLY = "club_members_only"
    """A club-only room's seats are for the club's members: sign in with an account
    that is one (or ask to join the club)."""
    CLUB_RATE_LIMITED = "club_rate_limited"
    """Too many club actions from this account lately (CLUB_ACTIONS_PER_MINUTE)."""


class ClubRefused(ServiceError):
    """A club's refusal: one of ``ClubCode`` and a message for people."""

    def __init__(self, code: ClubCode, message: str) -> None:
        super().__init__(code, message)
