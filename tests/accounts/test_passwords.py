"""app/accounts/passwords.py: production hashes at RFC 9106's second recommended
setting, and a hash verifies whatever parameters the verifying process uses (the
suite hashes at cheap ones: tests/cheap_hashes.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from app.accounts import passwords
from tests.cheap_hashes import CHEAP
from tests.conftest import run_async

PRODUCTION = """
import json
from app.accounts import passwords
h = passwords._hasher
encoded = h.hash("x")
print(json.dumps([h.time_cost, h.memory_cost, h.parallelism, encoded]))
"""


def test_a_fresh_server_process_hashes_at_rfc_9106s_second_setting() -> None:
    """Argon2id, 3 passes, 64 MiB, 4 lanes: in an interpreter the suite did not touch,
    and in the hash's own text."""
    out = subprocess.run(
        [sys.executable, "-c", PRODUCTION], capture_output=True, text=True, check=True
    ).stdout
    time_cost, memory_cost, parallelism, encoded = json.loads(out)
    assert (time_cost, memory_cost, parallelism) == (3, 65536, 4)
    assert encoded.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    # and a production hash verifies where the suite's cheap hasher is installed
    assert run_async(passwords.verify_password(encoded, "x"))
    assert not run_async(passwords.verify_password(encoded, "y"))


def test_the_suites_hashes_are_argon2id_and_verify_under_production() -> None:
    assert passwords._hasher is CHEAP, "tests/conftest.py installs the cheap hasher"
    encoded = run_async(passwords.hash_password("correct horse"))
    assert encoded.startswith("$argon2id$v=19$m=8192,t=1,p=1$")
    assert not run_async(passwords.verify_password(None, "correct horse")), "no hash: no"
    from argon2 import PasswordHasher

    assert PasswordHasher().verify(encoded, "correct horse")
