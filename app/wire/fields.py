"""Constrained strings shared by several messages (and by the REST schemas).

Each is the one definition of what a name, a card code or an id may be, so the
WebSocket and the REST API refuse the same input the same way.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, StringConstraints

from app.text import check_text

Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(check_text),
]
"""A player's name: stripped, 1..40 characters, none of them refused (app/text.py)."""
CardCode = Annotated[str, StringConstraints(min_length=2, max_length=3)]
ClientId = Annotated[str, StringConstraints(pattern=r"^[\x21-\x7e]{1,64}$")]
"""A play's id, stored with the move: printable ASCII without spaces, 1..64 characters
(no NUL or other character a database could refuse)."""
ReviewKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A browser tab's secret review key: the same tab (a reload too) is the same participant."""
PlayerKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A browser's player key (app/players/players.py, KEY_PATTERN): only its hash is kept."""
