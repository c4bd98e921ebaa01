"""Names nobody may take, and the form any two names are compared in (issues 34, 46).

Bots sit at the table as "Bot 1", "Bot 2" (the client shows them in the reader's
language: "Dator 1", "Robot 1", "Maskin 1") and play at a level ("Strong (searches)",
"Stark (söker)"), so a person calling themselves any of these in any of the six
languages would be taken for a bot by the others.

Two names are the same name when their *skeletons* are equal (``name_key``):

1. NFKC (full-width letters and digits are the plain ones, "ﬁ" is "fi");
2. format characters (Unicode category Cf: zero-width spaces and joiners, the soft
   hyphen, bidirectional marks, tags) removed;
3. white space removed (collapsed, then gone: "Bo Lind" is "BoLind");
4. case folded;
5. look-alike characters folded by the confusables data of Unicode (UTS #39,
   section 4, "skeleton"): Cyrillic "А" is "a", "0" is "o", "1" is "l".  The data
   and the fold are the ``disarm`` package's (``skeleton_key``, its TR39 digit
   policy), never a table of our own.

Case is folded before the look-alikes so that "Ian" and "ian" stay one name (UTS #39
alone puts capital "I" with "l"; case-insensitive names cannot have both).  A
skeleton is only ever compared, never shown.

A name may not hold the bidirectional *formatting* controls (embeddings, overrides
and isolates, ``bidi_control``): they reorder what is shown after them, so
"\\u202e1 toB" reads "Bot 1" on the screen while no comparison of its characters can
see that.  The other format characters are removed for the comparison but allowed:
Persian writes ZWNJ inside words, and an emoji sequence holds ZWJ.

``is_reserved_name`` is pure and knows only the bots' words.  Names that belong to
someone (a seated player: app/rooms/commands/seats.py and, for a spectator's chat,
app/social/chat.py; an account's username: app/accounts/service.py) are compared with
the same ``name_key`` by whoever knows them.  tests/test_names.py checks BOT_WORDS and
LEVEL_WORDS against every catalogue in static/i18n/, so a new language's word for a
bot cannot be missed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from disarm import skeleton_key

BOT_WORDS = ("bot", "robot", "maskin", "dator")
"""The word the server (``Bot {n}``) and each language's catalogue (``bot``, ``bot_n``)
call a bot by."""

LEVELS = ("random", "greedy", "strong")
"""The bot levels as the API names them (app/bots/levels.py: LEVELS)."""

LEVEL_LABELS = (
    *("Beginner (random)", "Careful (greedy)", "Strong (searches)"),
    *("Principiante (azar)", "Prudente (codicioso)", "Fuerte (busca)"),
    *("Débutant (hasard)", "Prudent (glouton)", "Fort (recherche)"),
    *("Nybegynner (tilfeldig)", "Forsiktig (grådig)", "Sterk (søker)"),
    *("Iniciante (aleatório)", "Cauteloso (guloso)", "Forte (busca)"),
    *("Nybörjare (slump)", "Försiktig (girig)", "Stark (söker)"),
)
"""Each catalogue's bot_random, bot_greedy and bot_strong: how the lobby shows a level."""

LEVEL_WORDS = tuple(
    sorted({*LEVELS, *(w.strip("()").casefold() for lb in LEVEL_LABELS for w in lb.split())})
)
"""Every word a bot's level is called by: "Strong bot", "Bot 2 (greedy)" and "Stark
dator" pass for a bot as "Bot 1" does."""

BIDI_FORMATTING = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes of the embedding, override and isolate controls (U+202A to
U+202E, U+2066 to U+2069), read from the Unicode database."""

RESERVED_MESSAGE = "this name is kept for the bots; choose another"
"""The message of the ``name_reserved`` refusal of a bot's name."""

SEATED_MESSAGE = "a player at this table has this name (or one that looks like it)"
"""The message of the ``name_reserved`` refusal of a seated person's name."""


def name_key(name: str) -> str:
    """The skeleton two names are compared by (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = "".join(text.split()).casefold()
    return "".join(skeleton_key(text, digit_policy="tr39").split())


def plain_key(name: str) -> str:
    """Steps 1 to 4 of ``name_key`` without the look-alikes: what an account's stored
    username key is compared with until that key is a skeleton too."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return "".join(text.split()).casefold()


def bidi_control(name: str) -> str | None:
    """Why ``name`` may not be a name (its first bidirectional formatting control,
    named), or None."""
    for ch in name:
        if unicodedata.bidirectional(ch) in BIDI_FORMATTING:
            return f"a name must not contain a bidirectional control (U+{ord(ch):04X})"
    return None


def _bare(key: str) -> str:
    """Letters and digits of a skeleton alone: "Bot-1", "(Bot 1)" and "B̷o̷t̷ 1" are all
    "botl" to the bots' pattern."""
    return "".join(
        ch for ch in unicodedata.normalize("NFD", key) if unicodedata.category(ch)[0] in "LN"
    )


@lru_cache(maxsize=1)
def _reserved() -> re.Pattern[str]:
    """The bots' names as skeletons: a bot word with any number after it, with or
    without a level word before or after, or a level's whole label."""

    def alternatives(words: tuple[str, ...]) -> str:
        keys = sorted({_bare(name_key(w)) for w in words}, key=len, reverse=True)
        return "|".join(re.escape(k) for k in keys)

    bot, level = alternatives(BOT_WORDS), alternatives(LEVEL_WORDS)
    digits = alternatives(tuple("0123456789"))  # "1" is "l" and "0" is "o" by now
    labels = alternatives(LEVEL_LABELS)
    return re.compile(rf"(?:{level})?(?:{bot})(?:{digits})*(?:(?:{level})(?:{digits})*)?|{labels}")


def is_reserved_name(name: str) -> bool:
    """Whether ``name`` would pass for a bot: a bot word of any language, alone or with
    a number ("Bot", "Bot 1", "dator 12", "ROBOT3", "B\\u200bot 1", Cyrillic "Bоt 1"),
    a bot with its level ("Strong bot", "Bot 2 (greedy)") or a level's label
    ("Strong (searches)")."""
    return _reserved().fullmatch(_bare(name_key(name))) is not None


def same_name(a: str, b: str) -> bool:
    """Whether two names would be taken for one another."""
    return name_key(a) == name_key(b)
