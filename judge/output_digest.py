"""A keyed digest of an output's bytes: how a large output is checked without leaving the device.

For a large test of a problem whose outputs must match the reference exactly, the oracle computes the
digest of each expected output under a random 64-bit key of its own, the judge side gives the runner
the key only, and the runner digests what solve() wrote, on the device, instead of copying it back.
Equal digests stand for equal bytes; any other answer (a different digest, none) and the outputs are
copied back and checked element by element, as for every other test.

The bytes are read as little-endian 32-bit words (the last one padded with zero bytes). Word i, with
its index in the high half, goes through the key and SplitMix64's finalizer, a bijection of 64-bit
values; the digest is the sum of those mixed words modulo 2^64. A single wrong word therefore always
changes the digest, and to name the digest of bytes it does not have (the expected output's, which the
runner never sees) a submission would have to know those bytes: the mix is not linear, so no sum or
other summary of the expected values gives it. The same function runs in `cudajudge_digest`
(judge/backends/gpu_kernels.py).
"""
from __future__ import annotations

import os

import numpy as np

from judge.pieces import each_piece

MIX_1 = np.uint64(0xBF58476D1CE4E5B9)   # SplitMix64's finalizer
MIX_2 = np.uint64(0x94D049BB133111EB)
PIECE_WORDS = 1 << 18   # a piece's 64-bit temporaries (2 MB) stay in the cache: 4x faster than 1 << 22


def new_key() -> int:
    return int.from_bytes(os.urandom(8), "little")


def _words(data: np.ndarray) -> np.ndarray:
    raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    if raw.size % 4:
        raw = np.concatenate([raw, np.zeros(4 - raw.size % 4, np.uint8)])
    return raw.view("<u4")


def _mixed_sum(words: np.ndarray, first: int, key: np.uint64) -> np.uint64:
    z = np.arange(first, first + words.size, dtype=np.uint64)
    z <<= np.uint64(32)
    z |= words
    z ^= key
    z ^= z >> np.uint64(30)
    z *= MIX_1
    z ^= z >> np.uint64(27)
    z *= MIX_2
    z ^= z >> np.uint64(31)
    return z.sum(dtype=np.uint64)


def output_digest(data: np.ndarray, key: int) -> int:
    """The digest of `data`'s bytes under `key` (0 <= key < 2^64), pieces on threads."""
    words, k = _words(data), np.uint64(key)
    sums = each_piece(lambda piece: _mixed_sum(words[piece[0]:piece[0] + piece[1]], piece[0], k), words.size, PIECE_WORDS)
    return int(sum(int(s) for s in sums) % (1 << 64))
