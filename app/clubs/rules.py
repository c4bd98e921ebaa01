"""Who may do what in a club, what a club's name and description may be, and the
limits: pure, so that app/db/clubs.py can ask them inside the transaction that acts.

Roles: the **owner** (who made the club, or was handed it), **organisers** and
**members**.  The table ``PERMITTED`` is the whole of it:

| act | owner | organiser | member |
|---|---|---|---|
| make, renew or revoke the invite link; see it and the requests | yes | yes | no |
| accept or refuse a join request | yes | yes | no |
| remove a member | anyone but themself | members only | no |
| change a role (hand ownership over) | yes | no | no |
| close the club | yes | no | no |
| leave | after handing ownership over | yes | yes |

Nobody acts on a closed club but to read it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from app.names import bidi_control, name_key

from .errors import ClubCode, ClubRefused

NAME_MIN, NAME_MAX = 3, 40
DESCRIPTION_MAX = 500
SKELETON_MAX = 160
"""A name whose skeleton is longer than this (look-alike folds can lengthen a name) is
refused: the stored key has a size."""
_MARKUP = re.compile(r"<\s*[A-Za-z/!?]|&[#A-Za-z0-9]+;")
"""What reads as HTML: a tag's start or a character reference."""


class Role(StrEnum):
    OWNER = "owner"
    ORGANISER = "organiser"
    MEMBER = "member"


class Act(StrEnum):
    INVITE = "invite"
    ANSWER = "answer"
    REMOVE = "remove"
    SET_ROLE = "set_role"
    CLOSE = "close"
    LEAVE = "leave"


PERMITTED: dict[Act, frozenset[Role]] = {
    Act.INVITE: frozenset({Role.OWNER, Role.ORGANISER}),
    Act.ANSWER: frozenset({Role.OWNER, Role.ORGANISER}),
    Act.REMOVE: frozenset({Role.OWNER, Role.ORGANISER}),
    Act.SET_ROLE: frozenset({Role.OWNER}),
    Act.CLOSE: frozenset({Role.OWNER}),
    Act.LEAVE: frozenset({Role.ORGANISER, Role.MEMBER}),
}
"""Who may act at all; ``may`` adds whom they may act on."""


def may(actor: Role | None, act: Act, target: Role | None = None) -> bool:
    """Whether ``actor`` (None: not a member) may ``act`` (on a member of role ``target``)."""
    if actor is None or actor not in PERMITTED[act]:
        return False
    if act is Act.REMOVE:
        return target is not None and (
            target is Role.MEMBER or (actor is Role.OWNER and target is not Role.OWNER)
        )
    return True


@dataclass(frozen=True, slots=True)
class ClubLimits:
    """How much one account and one club may hold (app/config.py's CLUB_* settings)."""

    owned: int = 3
    """Open clubs one account owns."""
    joined: int = 50
    """Open clubs one account is a member of, owned ones included."""
    members: int = 500
    requests_per_club: int = 100
    """Pending join requests of one club."""
    requests_per_account: int = 10
    """Pending join requests of one account, over all clubs."""
    invite_ms: int = 14 * 86_400_000
    """How long an invite link lasts from when it was made."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What a club's write reads first, in its transaction."""

    closed: bool
    actor: Role | None
    """The acting account's role; None when it is no member."""
    target: Role | None = None
    """The role of the account acted on; None when it is no member."""


def refuse(code: ClubCode, message: str) -> ClubRefused:
    return ClubRefused(code, message)


def check_open(facts: Facts) -> None:
    if facts.closed:
        raise refuse(ClubCode.CLUB_CLOSED, "this club is closed")


def check_may(facts: Facts, act: Act) -> None:
    """The act is the actor's to make (on its target), in an open club."""
    check_open(facts)
    if not may(facts.actor, act, facts.target):
        role = "no member" if facts.actor is None else f"the {facts.actor.value}"
        raise refuse(ClubCode.CLUB_FORBIDDEN, f"{role} of this club may not {act.value} here")


def check_leave(facts: Facts) -> None:
    check_open(facts)
    if facts.actor is None:
        raise refuse(ClubCode.NOT_CLUB_MEMBER, "you are not a member of this club")
    if facts.actor is Role.OWNER:
        raise refuse(
            ClubCode.OWNER_MUST_HAND_OVER,
            "the owner hands ownership to another member before leaving (or closes the club)",
        )


def _text(value: str) -> str:
    return unicodedata.normalize("NFC", value)


def _controls(value: str, allowed: str = "") -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in allowed for ch in value)


def check_name(name: str) -> tuple[str, str]:
    """The name as stored (NFC, spaces collapsed) and its skeleton, or ``bad_club_name``.
    Invisible (format) characters do not count towards the shortest name."""
    cleaned = " ".join(_text(name).split())
    problem = None
    visible = sum(1 for ch in cleaned if unicodedata.category(ch) != "Cf")
    if visible < NAME_MIN or len(cleaned) > NAME_MAX:
        problem = f"a club's name is {NAME_MIN} to {NAME_MAX} characters"
    elif _controls(name):
        problem = "a club's name must not contain control characters"
    elif bidi_control(cleaned):
        problem = bidi_control(cleaned)
    elif "<" in cleaned or ">" in cleaned or _MARKUP.search(cleaned):
        problem = "a club's name is plain text: no '<', '>' or character references"
    skeleton = "" if problem else name_key(cleaned)
    if problem is None and not any(ch.isalnum() for ch in skeleton):
        problem = "a club's name needs letters or digits"
    if problem is None and len(skeleton) > SKELETON_MAX:
        problem = "this name is too long once its look-alike letters are folded"
    if problem is not None:
        raise refuse(ClubCode.BAD_CLUB_NAME, problem)
    return cleaned, skeleton


def check_description(text: str) -> str:
    """The description as stored (NFC, trimmed), or ``bad_club_description``."""
    cleaned = _text(text).strip()
    problem = None
    if len(cleaned) > DESCRIPTION_MAX:
        problem = f"a description has at most {DESCRIPTION_MAX} characters"
    elif _controls(cleaned, "\n\t"):
        problem = "a description must not contain control characters (line breaks may be)"
    elif bidi_control(cleaned):
        problem = bidi_control(cleaned)
    elif _MARKUP.search(cleaned):
        problem = "a description is plain text, not HTML"
    if problem is not None:
        raise refuse(ClubCode.BAD_CLUB_DESCRIPTION, problem)
    return cleaned
