"""Names nobody may take: the ones that would pass a person off as a bot.

Bots sit at the table as "Bot 1", "Bot 2" (the client shows them in the reader's
language: "Dator 1", "Robot 1", "Maskin 1"), so a person calling themselves any of
these in any of the six languages would be taken for a bot by the others (issue 34).
Names are compared by ``name_key``: Unicode-normalised (NFKC: full-width letters and
digits are the plain ones), case-folded and without any white space, so "BOT 1",
"bot1" and "Ｂｏｔ　１" are all "bot1".

``is_reserved_name`` is pure and knows only these words.  Names that belong to
someone (a seated player, for a spectator's chat: app/social/chat.py; an account's
username, once there are accounts) are compared with the same ``name_key`` by
whoever knows them.  tests/test_names.py checks BOT_WORDS against every catalogue in
static/i18n/, so a new language's word for a bot cannot be missed.
"""

from __future__ import annotations

import re
import unicodedata

BOT_WORDS = ("bot", "robot", "maskin", "dator")
"""The word the server (``Bot {n}``) and each language's catalogue (``bot``, ``bot_n``)
call a bot by, as ``name_key`` writes it."""

_BOT_NAME = re.compile(rf"(?:{'|'.join(BOT_WORDS)})\d*")


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, no white space."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if not ch.isspace())


def is_reserved_name(name: str) -> bool:
    """Whether ``name`` would pass for a bot: a bot word of any language, alone or
    followed by a number ("Bot", "Bot 1", "dator 12", "ROBOT3")."""
    return _BOT_NAME.fullmatch(name_key(name)) is not None


RESERVED_MESSAGE = "this name is kept for the bots; choose another"
"""The message of the ``name_reserved`` refusal of a bot's name."""
