"""static/js/qr.js under Node, read back by an independent decoder (qrdecode.py).

Texts of every length the encoder takes (1 to 213 bytes: versions 1 to 10), links
like the "Continue on another device" ones, and UTF-8: each QR code must decode to
exactly its text, its format bits and error correction checked.  Skipped without
Node (the browser test of the transfer dialog decodes one drawn in Chromium).
"""

from __future__ import annotations

import json
import random
import string
import subprocess

import pytest

from tests.conftest import ROOT

from .conftest import node_path
from .qrdecode import QrError, decode

SCRIPT = """
import { encode, MAX_VERSION } from "./static/js/qr.js";
const texts = JSON.parse(process.argv[1]);
const out = texts.map((t) => {
  try { const q = encode(t); return { version: q.version, rows: q.modules.map((r) => r.map((d) => (d ? 1 : 0)).join("")) }; }
  catch (e) { return { error: String(e) }; }
});
console.log(JSON.stringify({ max: MAX_VERSION, out }));
"""


def _texts() -> list[str]:
    rng = random.Random(18004)
    alphabet = string.ascii_letters + string.digits + "-_.:/#?=&"
    texts = ["".join(rng.choice(alphabet) for _ in range(n)) for n in range(1, 214)]
    texts += [
        f"https://krypkasino.example.org/continue#{rng.randbytes(16).hex()}."
        f"{rng.randbytes(32).hex()}"
        for _ in range(5)
    ]
    texts += ["Smörgåsbord ♠♥♦♣", "x" * 214]
    return texts


def test_every_qr_code_decodes_to_its_text() -> None:
    node = node_path()
    if node is None:
        pytest.skip("node not installed")
    texts = _texts()
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, json.dumps(texts)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    versions = set()
    for text, got in zip(texts, result["out"]):
        if len(text.encode()) > 213:
            assert "too long" in got.get("error", ""), "refused, not truncated"
            continue
        matrix = [[ch == "1" for ch in row] for row in got["rows"]]
        try:
            assert decode(matrix) == text
        except QrError as exc:
            raise AssertionError(f"{len(text)} bytes, version {got['version']}: {exc}") from exc
        versions.add(got["version"])
    assert versions == set(range(1, result["max"] + 1))


def test_the_decoder_notices_a_damaged_code() -> None:
    node = node_path()
    if node is None:
        pytest.skip("node not installed")
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, json.dumps(["hello"])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    rows = json.loads(done.stdout)["out"][0]["rows"]
    matrix = [[ch == "1" for ch in row] for row in rows]
    assert decode(matrix) == "hello"
    matrix[20][20] = not matrix[20][20]  # one data module of version 1 flipped
    with pytest.raises(QrError):
        decode(matrix)
