"""Who may do what on this instance: the access mode a host sets (``ACCESS``).

- ``open``: anyone plays, as before accounts existed;
- ``accounts``: making a room needs a signed-in account; anyone with a link may
  still join or watch it;
- ``members``: only signed-in accounts may make, join or watch a room, over HTTP
  and the WebSocket, spectators included.

A refusal is ``sign_in_required`` (401): the person can fix it by signing in.
"""

from __future__ import annotations

from enum import StrEnum


class AccessMode(StrEnum):
    OPEN = "open"
    ACCOUNTS = "accounts"
    MEMBERS = "members"


class Action(StrEnum):
    CREATE = "create"
    """Make a room (POST /api/rooms, and anything else that makes one)."""
    JOIN = "join"
    """Take a seat, take one up again, claim a transfer."""
    WATCH = "watch"
    """Read a room, its history or the lobby; open its WebSocket."""


SIGN_IN_REQUIRED = "sign_in_required"


class SignInRequired(Exception):
    """401 ``sign_in_required``: this instance wants a signed-in account for this."""

    code = SIGN_IN_REQUIRED

    def __init__(self, action: Action, mode: AccessMode) -> None:
        what = {
            Action.CREATE: "make a room",
            Action.JOIN: "join a room",
            Action.WATCH: "open a room",
        }[action]
        super().__init__(f"sign in to {what}: this server is for {_WHO[mode]}")
        self.message = str(self)
        self.action, self.mode = action, mode


_WHO = {
    AccessMode.OPEN: "everyone",
    AccessMode.ACCOUNTS: "players with an account to make rooms",
    AccessMode.MEMBERS: "its members only",
}


def needs_account(mode: AccessMode, action: Action) -> bool:
    if mode is AccessMode.MEMBERS:
        return True
    return mode is AccessMode.ACCOUNTS and action is Action.CREATE


def check(mode: AccessMode, action: Action, signed_in: bool) -> None:
    """Raise SignInRequired when ``mode`` wants an account for ``action`` and there is none."""
    if not signed_in and needs_account(mode, action):
        raise SignInRequired(action, mode)
