"""A shared review's state as pure functions: its key among the shared values, a
participant's public id, what clients are shown, and who is still there.

Kept apart from ``review.py`` (which changes the state and tells the connections)
so that the rules of who drives and who stays can be read and tested alone.
"""

from __future__ import annotations

import hashlib

from .review_types import Participant, PublicReview, ReviewState


def value_key(room_id: str) -> str:
    return f"review:{room_id}"


def participant_id(room_id: str, key: str) -> str:
    """A participant's public id: from the tab's secret review key, so that a reload
    (same tab, same key) is the same participant, and per room, so that ids do not
    follow a person from room to room."""
    return hashlib.sha256(f"krypkasino-review:{room_id}:{key}".encode()).hexdigest()[:16]


def public(review: ReviewState | None) -> PublicReview | None:
    """What a client sees: the review without the processes its participants are on."""
    if review is None:
        return None
    return {
        "id": review["id"],
        "match_no": review["match_no"],
        "deal_no": review["deal_no"],
        "steps": review["steps"],
        "step": review["step"],
        "driver": review["driver"],
        "participants": [
            {"id": p["id"], "name": p["name"], "seat": p["seat"]} for p in review["participants"]
        ],
        "branch": review.get("branch"),
    }


def prune(review: ReviewState, live: set[str]) -> ReviewState | None:
    """Drop connections on processes that are gone, then participants with none left;
    control passes on from a driver who went; no participant left ends the review."""
    people: list[Participant] = []
    for p in review["participants"]:
        origins = [o for o in p["origins"] if o in live]
        if origins:
            people.append({**p, "origins": origins})
    return with_people(review, people)


def with_people(review: ReviewState, people: list[Participant]) -> ReviewState | None:
    if not people:
        return None
    driver = review["driver"]
    if all(p["id"] != driver for p in people):
        driver = people[0]["id"]
    return {**review, "participants": people, "driver": driver}


def find(review: ReviewState | None, pid: str | None) -> Participant | None:
    if review is None or pid is None:
        return None
    return next((p for p in review["participants"] if p["id"] == pid), None)
