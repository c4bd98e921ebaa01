"""What a username and a password must be: pure rules, each refusal with its own code.

A name is 3 to 24 letters, digits, ``_``, ``-`` or ``.`` (ASCII only: no look-alike
letters from other scripts can pass for another person's name), unique without
regard to case, and not a look-alike of another account's: "b0b" and "a1ex" are
"bob" and "alex" to the eye (their skeletons, app/names.py).  A password is judged
by length above all (NIST SP 800-63B: at least 8 characters, any characters, no
composition rules), and refused when it is one of the passwords every guesser tries
first, the name itself, or a single character repeated.
"""

from __future__ import annotations

import re
import unicodedata

from app.names import name_key

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,24}$")

COMMON_PASSWORDS = frozenset(
    {
        "password",
        "password1",
        "password12",
        "password123",
        "passw0rd",
        "12345678",
        "123456789",
        "1234567890",
        "11111111",
        "00000000",
        "87654321",
        "qwertyui",
        "qwertyuiop",
        "qwerty123",
        "1q2w3e4r",
        "1qaz2wsx",
        "abcd1234",
        "abc12345",
        "iloveyou",
        "sunshine",
        "princess",
        "football",
        "baseball",
        "letmein1",
        "welcome1",
        "trustno1",
        "superman",
        "krypkasino",
        "kasino123",
        "asdfghjk",
        "zaq12wsx",
    }
)
"""The first guesses of every password list, and this game's own name."""


class BadAccountInput(ValueError):
    """A refused name or password; ``code`` is the wire code (422)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


BAD_USERNAME = "bad_username"
WEAK_PASSWORD = "weak_password"


def fold(username: str) -> str:
    """The form names are unique in: lower case (the names are ASCII)."""
    return username.lower()


def look_alike(username: str) -> str | None:
    """The ``fold`` of the name ``username`` would be taken for, when that is another
    name: its skeleton (app/names.py) where "0" is "o" and "1" is "l" ("B0b" -> "bob"),
    else None.  Accounts are found by their stored skeletons (migration 0019) both
    ways; this finds, by its ``fold``, an account that migration left without one."""
    skeleton = name_key(username)
    return skeleton if skeleton != fold(username) and _NAME.fullmatch(skeleton) else None


def check_username(username: str) -> str:
    """The name as given, or BadAccountInput(``bad_username``)."""
    if not _NAME.fullmatch(username):
        raise BadAccountInput(
            BAD_USERNAME,
            f"a username is {NAME_MIN} to {NAME_MAX} letters (a-z), digits, '_', '-' or '.'",
        )
    return username


def check_password(password: str, username: str) -> str:
    """The password, or BadAccountInput(``weak_password``) saying what is wrong."""
    length = len(unicodedata.normalize("NFC", password))
    if length < PASSWORD_MIN:
        raise BadAccountInput(WEAK_PASSWORD, f"a password needs at least {PASSWORD_MIN} characters")
    if length > PASSWORD_MAX:
        raise BadAccountInput(WEAK_PASSWORD, f"a password has at most {PASSWORD_MAX} characters")
    lowered = password.lower()
    if lowered in COMMON_PASSWORDS:
        raise BadAccountInput(WEAK_PASSWORD, "this password is among the first ones guessed")
    if username and fold(username) in lowered:
        raise BadAccountInput(WEAK_PASSWORD, "a password must not contain the username")
    if len(set(password)) < 4:
        raise BadAccountInput(WEAK_PASSWORD, "a password needs at least 4 different characters")
    return password


def name_from(preferred: str | None, fallback: str) -> str:
    """A valid username made of what an external provider calls the person (their
    preferred username or e-mail's local part), else ``fallback``; not yet unique."""
    text = (preferred or "").split("@", 1)[0]
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "", text)[:NAME_MAX]
    if len(cleaned) < NAME_MIN:
        cleaned = fallback[:NAME_MAX]
    return cleaned
