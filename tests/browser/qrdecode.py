"""A QR code reader for the tests: from a module matrix back to the text.

Independent of the client's encoder (static/js/qr.js): it reads the format
information (and checks its BCH code), rebuilds which modules are function
patterns, undoes the mask, reads the codewords in the zigzag order, splits the
interleaved blocks, checks each block's Reed-Solomon error correction against
its data, and parses the byte-mode segment.  Level M, versions 1 to 10: what
the client makes.  Any mistake in the encoder's layout shows up here as an
exception or a wrong text.
"""

from __future__ import annotations

ECC_PER_BLOCK_M = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
BLOCKS_M = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]
ALIGNMENT = {
    1: [],
    2: [6, 18],
    3: [6, 22],
    4: [6, 26],
    5: [6, 30],
    6: [6, 34],
    7: [6, 22, 38],
    8: [6, 24, 42],
    9: [6, 26, 46],
    10: [6, 28, 50],
}
"""Alignment pattern centres, from the standard's table E.1."""
TOTAL_CODEWORDS = [0, 26, 44, 70, 100, 134, 172, 196, 242, 292, 346]
"""From the standard's table 9."""
MASKS = [
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: (r * c) % 2 + (r * c) % 3 == 0,
    lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0,
]


class QrError(ValueError):
    pass


def _bch_format(data: int) -> int:
    rem = data << 10
    for shift in range(14, 9, -1):
        if rem >> shift & 1:
            rem ^= 0x537 << (shift - 10)
    return ((data << 10) | rem) ^ 0x5412


def _gf_mul(a: int, b: int) -> int:
    out = 0
    while b:
        if b & 1:
            out ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11D
        b >>= 1
    return out


def _rs_ecc(data: list[int], n: int) -> list[int]:
    """The n error-correction codewords of ``data``: the remainder of data * x^n by the
    generator (x - a^0)(x - a^1)...(x - a^(n-1)), by long division."""
    gen = [1]
    root = 1
    for _ in range(n):
        nxt = [0] * (len(gen) + 1)
        for i, g in enumerate(gen):
            nxt[i] ^= g
            nxt[i + 1] ^= _gf_mul(g, root)
        gen = nxt
        root = _gf_mul(root, 2)
    work = list(data) + [0] * n
    for i in range(len(data)):
        coef = work[i]
        if coef:
            for j, g in enumerate(gen):
                work[i + j] ^= _gf_mul(g, coef)
    return work[len(data) :]


def _function_modules(version: int) -> list[list[bool]]:
    n = 17 + 4 * version
    f = [[False] * n for _ in range(n)]

    def box(r0: int, c0: int, r1: int, c1: int) -> None:
        for r in range(max(0, r0), min(n, r1 + 1)):
            for c in range(max(0, c0), min(n, c1 + 1)):
                f[r][c] = True

    box(0, 0, 8, 8)  # finders with separators and format areas
    box(0, n - 8, 8, n - 1)
    box(n - 8, 0, n - 1, 8)
    box(6, 0, 6, n - 1)  # timing
    box(0, 6, n - 1, 6)
    centres = ALIGNMENT[version]
    for r in centres:
        for c in centres:
            if (r < 9 and c < 9) or (r < 9 and c > n - 10) or (r > n - 10 and c < 9):
                continue
            box(r - 2, c - 2, r + 2, c + 2)
    if version >= 7:
        box(0, n - 11, 5, n - 9)
        box(n - 11, 0, n - 9, 5)
    return f


def decode(matrix: list[list[bool]]) -> str:
    """The text of a QR code given as rows of modules (True: dark), no quiet zone."""
    n = len(matrix)
    version = (n - 17) // 4
    if n != 17 + 4 * version or not 1 <= version <= 10 or any(len(r) != n for r in matrix):
        raise QrError(f"not a QR code of version 1-10: {n} modules")
    # Format information, first copy, bit 14 first: row 8 from the left (skipping the
    # timing column), then column 8 upwards (skipping the timing row).
    cells = [(8, c) for c in (0, 1, 2, 3, 4, 5, 7, 8)] + [(r, 8) for r in (7, 5, 4, 3, 2, 1, 0)]
    word = 0
    for r, c in cells:
        word = word << 1 | int(matrix[r][c])
    valid = {_bch_format(d): d for d in range(32)}
    if word not in valid:
        raise QrError(f"format bits {word:015b} are not a valid BCH code word")
    level, mask = valid[word] >> 3, valid[word] & 7
    if level != 0:
        raise QrError(f"level {level}, not M")
    # The second copy, bit 14 first: column 8 upwards from the bottom, then row 8 to
    # the right edge; it must agree.
    second = [(n - 1 - i, 8) for i in range(7)] + [(8, n - 8 + i) for i in range(8)]
    word2 = 0
    for r, c in second:
        word2 = word2 << 1 | int(matrix[r][c])
    if word2 != word:
        raise QrError("the two copies of the format bits differ")
    if not matrix[n - 8][8]:
        raise QrError("the dark module is light")
    func = _function_modules(version)
    bits: list[int] = []
    col = n - 1
    upward = True
    while col > 0:
        if col == 6:
            col -= 1
        rows = range(n - 1, -1, -1) if upward else range(n)
        for r in rows:
            for c in (col, col - 1):
                if not func[r][c]:
                    bits.append(int(matrix[r][c] ^ MASKS[mask](r, c)))
        upward = not upward
        col -= 2
    total = TOTAL_CODEWORDS[version]
    words = [int("".join(map(str, bits[i * 8 : i * 8 + 8])), 2) for i in range(total)]
    blocks, ecc_len = BLOCKS_M[version], ECC_PER_BLOCK_M[version]
    data_total = total - blocks * ecc_len
    short = blocks - data_total % blocks
    sizes = [data_total // blocks + (0 if i < short else 1) for i in range(blocks)]
    data_blocks: list[list[int]] = [[] for _ in range(blocks)]
    pos = 0
    for i in range(max(sizes)):
        for b in range(blocks):
            if i < sizes[b]:
                data_blocks[b].append(words[pos])
                pos += 1
    eccs = [_rs_ecc(block, ecc_len) for block in data_blocks]
    for i in range(ecc_len):
        for b in range(blocks):
            if words[pos] != eccs[b][i]:
                raise QrError(f"block {b}: error correction codeword {i} is wrong")
            pos += 1
    stream = "".join(f"{w:08b}" for block in data_blocks for w in block)
    if stream[:4] != "0100":
        raise QrError(f"mode {stream[:4]}, not byte mode")
    count_bits = 8 if version < 10 else 16
    count = int(stream[4 : 4 + count_bits], 2)
    start = 4 + count_bits
    raw = bytes(int(stream[start + 8 * i : start + 8 * i + 8], 2) for i in range(count))
    return raw.decode("utf-8")
