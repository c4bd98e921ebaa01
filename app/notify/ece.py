"""Web Push message encryption (RFC 8291 over RFC 8188's ``aes128gcm``), on ``cryptography``.

Why our own few dozen lines rather than a package: the one package that did this
(http-ece) is published only as a source archive, so the image, which installs
wheels only and has no compiler, could not be built; and what it would bring is
one function over primitives ``cryptography`` already gives us (ECDH on P-256,
HKDF-SHA-256, AES-128-GCM).  The tests decrypt every message with http-ece, an
independent implementation, kept as a test dependency only.

A message is one record (a push service takes about 4 KB, so a record of 4096
bytes always holds it):

    header   = salt (16) | record size (uint32, 4096) | key id length (1) | sender's public key (65)
    record   = AES-128-GCM(CEK, NONCE, plaintext | 0x02)      (0x02: the last record)

with the keys derived as RFC 8291, section 3.4 says:

    PRK_key = HMAC-SHA-256(auth_secret, ECDH(sender, browser))
    IKM     = HKDF-Expand(PRK_key, "WebPush: info" 0x00 | browser public | sender public, 32)
    PRK     = HMAC-SHA-256(salt, IKM)
    CEK     = HKDF-Expand(PRK, "Content-Encoding: aes128gcm" 0x00, 16)
    NONCE   = HKDF-Expand(PRK, "Content-Encoding: nonce" 0x00, 12)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import struct

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

RECORD_SIZE = 4096
"""The record size written in the header; a message must fit one record."""
TAG_SIZE = 16
LAST_RECORD = b"\x02"
MAX_PLAINTEXT = RECORD_SIZE - TAG_SIZE - len(LAST_RECORD)


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def _expand(prk: bytes, info: bytes, length: int) -> bytes:
    """HKDF-Expand for one block (every length used here is at most 32 bytes)."""
    return _hmac(prk, info + b"\x01")[:length]


def _public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def encrypt(
    plaintext: bytes,
    *,
    browser_key: bytes,
    auth_secret: bytes,
    sender: ec.EllipticCurvePrivateKey | None = None,
    salt: bytes | None = None,
) -> bytes:
    """The ``aes128gcm`` body of one push message for the browser whose public key
    (uncompressed P-256 point) and 16-byte auth secret are given.

    ``sender`` and ``salt`` are fresh for every message unless given (only a test
    of known values gives them: reusing either would reuse the key and nonce).
    """
    if len(plaintext) > MAX_PLAINTEXT:
        raise ValueError(f"a push message holds at most {MAX_PLAINTEXT} bytes")
    if len(auth_secret) != 16:
        raise ValueError("the auth secret is 16 bytes")
    browser = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), browser_key)
    sender = sender or ec.generate_private_key(ec.SECP256R1())
    salt = salt if salt is not None else os.urandom(16)
    if len(salt) != 16:
        raise ValueError("the salt is 16 bytes")
    sender_public = _public_bytes(sender.public_key())

    shared = sender.exchange(ec.ECDH(), browser)
    prk_key = _hmac(auth_secret, shared)
    key_info = b"WebPush: info\x00" + _public_bytes(browser) + sender_public
    ikm = _expand(prk_key, key_info, 32)
    prk = _hmac(salt, ikm)
    cek = _expand(prk, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _expand(prk, b"Content-Encoding: nonce\x00", 12)

    header = salt + struct.pack("!IB", RECORD_SIZE, len(sender_public)) + sender_public
    return header + AESGCM(cek).encrypt(nonce, plaintext + LAST_RECORD, None)
