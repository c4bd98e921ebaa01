"""What is stored of a secret or an address (app/core/tokens.py): never the thing itself,
always the same hash for the same input (a seat's token is found again by it in every
process), and an address's key apart from a token's hash of the same text."""

from __future__ import annotations

import re

from app.core.tokens import creator_key, hash_token, new_token


def test_a_token_is_stored_as_its_sha256_and_found_again_by_it() -> None:
    token = new_token()
    stored = hash_token(token)
    assert re.fullmatch(r"[0-9a-f]{64}", stored)
    assert token not in stored
    assert hash_token(token) == stored, "every process finds the seat by the same hash"
    assert hash_token(token + "x") != stored
    # a known value: a change of the hash would orphan every stored token
    assert hash_token("abc") == ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


def test_new_tokens_are_long_and_do_not_repeat() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)


def test_an_address_is_kept_as_a_keyed_hash_of_its_own() -> None:
    key = creator_key("203.0.113.7")
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    assert creator_key("203.0.113.7") == key, "counted the same way by every process"
    assert creator_key("203.0.113.8") != key
    assert not hash_token("203.0.113.7").startswith(key), "keyed apart from a token's hash"
