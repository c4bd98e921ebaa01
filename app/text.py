"""Free text from clients (player names, an operator's close reason): what may be stored.

Such text ends up in the database and in every player's view.  PostgreSQL cannot
store NUL in text or JSON at all (it answered 500 to a name with "\\u0000" and
left the room half made), a lone surrogate is not valid UTF-8 anywhere, and
control characters and line or paragraph separators break the one-line places a
name is shown in.  So these are refused with a clear 422 on every database,
before anything is written:

- ``Cc``: control characters (NUL, tab, newline, escape, DEL, C1 controls);
- ``Cs``: surrogates (pydantic refuses lone ones already; this is the rule);
- ``Zl``, ``Zp``: the line and paragraph separators U+2028, U+2029.

Everything else a person may write in a name (accents, any script, emoji with
their joiners) is allowed.
"""

from __future__ import annotations

import unicodedata

REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def refused_character(text: str) -> str | None:
    """Why ``text`` may not be stored (naming the first refused character), or None."""
    for char in text:
        what = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if what is not None:
            return f"must not contain {what} (U+{ord(char):04X})"
    return None


def check_text(text: str) -> str:
    """A pydantic after-validator: ``text`` unchanged, or ValueError saying why not."""
    problem = refused_character(text)
    if problem is not None:
        raise ValueError(problem)
    return text
