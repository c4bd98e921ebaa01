"""The suite's password hashes: Argon2id still, at cheap parameters.

Production hashes with argon2-cffi's defaults (RFC 9106's second recommended
setting: 64 MiB, 3 passes, 4 lanes; app/accounts/passwords.py), about 0.17 s of CPU
a hash on this machine and far more on a loaded one.  The suite signs people up and
in some thousands of times on two cores, so its own processes (the test workers and
the fork server its servers are forked from) hash with 8 MiB and one pass instead:
0.007 s.  Nothing else changes; a hash made either way verifies either way (its
parameters are in its text).  Servers started as plain processes (``KK_TEST_FORK=0``),
the Docker image and every real deployment keep the defaults, and
tests/accounts/test_passwords.py checks those in a fresh interpreter."""

from __future__ import annotations

from argon2 import PasswordHasher

from app.accounts import passwords

CHEAP = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)


def install() -> None:
    """Make this process's password hashes cheap (the module's hasher and its dummy
    hash, which unknown names are checked against)."""
    assert isinstance(passwords._hasher, PasswordHasher), "app/accounts/passwords.py changed"
    passwords._hasher = CHEAP
    passwords._DUMMY = CHEAP.hash("a password nobody has, to spend the same time")
