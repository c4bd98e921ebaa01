"""Web Push encryption (app/notify/ece.py): RFC 8291's own example, byte for byte,
and every message decrypted by http-ece, an implementation independent of ours."""

from __future__ import annotations

import base64
import struct

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.notify import ece


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key(text: str) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(unb64(text), "big"), ec.SECP256R1())


# RFC 8291, appendix A: the keys, secret and salt of its example message.
AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
UA_PUBLIC = (
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
)
AUTH_SECRET = "BTBZMqHH6r4Tts7J_aSIgg"
SALT = "DGv6ra1nlYgDCS1FRnbzlw"
PLAINTEXT = b"When I grow up, I want to be a watermelon"
MESSAGE = (
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmY"
    "WAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSx"
    "sj_Qulcy4a-fN"
)


def test_the_rfcs_example_message_comes_out_byte_for_byte() -> None:
    body = ece.encrypt(
        PLAINTEXT,
        browser_key=unb64(UA_PUBLIC),
        auth_secret=unb64(AUTH_SECRET),
        sender=key(AS_PRIVATE),
        salt=unb64(SALT),
    )
    assert body == unb64(MESSAGE)


@pytest.mark.parametrize("size", [0, 1, 41, 3000, ece.MAX_PLAINTEXT])
def test_http_ece_decrypts_every_message_with_the_browsers_private_key(size: int) -> None:
    browser = ec.generate_private_key(ec.SECP256R1())
    payload = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    body = ece.encrypt(payload, browser_key=_point(browser), auth_secret=b"s" * 16)
    got = http_ece.decrypt(body, private_key=browser, auth_secret=b"s" * 16, version="aes128gcm")
    assert got == payload


def test_each_message_has_its_own_salt_and_sender_key() -> None:
    browser_key = unb64(UA_PUBLIC)
    first = ece.encrypt(PLAINTEXT, browser_key=browser_key, auth_secret=b"a" * 16)
    second = ece.encrypt(PLAINTEXT, browser_key=browser_key, auth_secret=b"a" * 16)
    salt, size, id_length = first[:16], *struct.unpack("!IB", first[16:21])
    assert (size, id_length) == (ece.RECORD_SIZE, 65)
    assert first[21:22] == b"\x04", "the key id is the sender's uncompressed public point"
    assert salt != second[:16]
    assert first[21:86] != second[21:86]


def test_a_wrong_auth_secret_does_not_decrypt() -> None:
    browser = ec.generate_private_key(ec.SECP256R1())
    body = ece.encrypt(PLAINTEXT, browser_key=_point(browser), auth_secret=b"a" * 16)
    with pytest.raises(Exception):  # noqa: B017, PT011 (http_ece raises cryptography's InvalidTag)
        http_ece.decrypt(body, private_key=browser, auth_secret=b"b" * 16, version="aes128gcm")


@pytest.mark.parametrize(
    ("payload", "secret", "salt"),
    [
        (b"x" * (ece.MAX_PLAINTEXT + 1), b"a" * 16, None),
        (b"x", b"a" * 15, None),
        (b"x", b"a" * 16, b"short"),
    ],
)
def test_what_does_not_fit_the_format_is_refused(
    payload: bytes, secret: bytes, salt: bytes | None
) -> None:
    with pytest.raises(ValueError):
        ece.encrypt(payload, browser_key=unb64(UA_PUBLIC), auth_secret=secret, salt=salt)


def _point(private: ec.EllipticCurvePrivateKey) -> bytes:
    return private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
