"""A ticket's id, which also says whose address made it.

A table's room counts against the address that made its first ticket (the room
caps, MAX_ROOMS_PER_IP), however long after that ticket was made and on whichever
server process the table forms: often on another person's poll, so the address
of the request at hand is the wrong one.  The queue's rows keep no address, so
the ticket's id carries the one thing needed, the key the rooms are counted by
(``creator_key``: a hash of the address, never the address itself): 10 random
characters (56 bits; a ticket is read only with its own player key or account as
well) and the key's 16 bytes in base64url, 32 characters in all, as the API's
ticket pattern and the ``pairing_tickets`` column allow.  A ticket made without an
address (a caller that has none) is 22 random characters, and its room counts
against no address, only against MAX_ROOMS.
"""

from __future__ import annotations

import base64
import binascii
import secrets

from app.core.tokens import creator_key

RANDOM_BYTES = 7
"""Random bytes of a ticket that carries its maker's key (10 base64url characters)."""
KEY_CHARS = 22
"""A creator key's 16 bytes in base64url without padding."""
TICKET_CHARS = 10 + KEY_CHARS


def new_ticket(address: str | None) -> str:
    """A new ticket id, carrying ``address``'s creator key when there is one."""
    if address is None:
        return secrets.token_urlsafe(16)
    key = bytes.fromhex(creator_key(address))
    encoded = base64.urlsafe_b64encode(key).decode().rstrip("=")
    return secrets.token_urlsafe(RANDOM_BYTES) + encoded


def maker_of(ticket: str) -> str | None:
    """The creator key a ticket id carries (what the room's ``created_by`` is), or None."""
    if len(ticket) != TICKET_CHARS:
        return None
    try:
        key = base64.urlsafe_b64decode(ticket[-KEY_CHARS:] + "==")
    except (binascii.Error, ValueError):
        return None
    return key.hex() if len(key) == 16 else None
