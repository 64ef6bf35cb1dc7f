"""The keyed output digest (judge/output_digest.py): the word-by-word definition, pieces on threads or
not; any one changed word, and another key, change it."""
from __future__ import annotations

import numpy as np
import pytest

from judge.output_digest import PIECE_WORDS, new_key, output_digest

MASK = (1 << 64) - 1


def _mix(z: int) -> int:
    z ^= z >> 30
    z = z * 0xBF58476D1CE4E5B9 & MASK
    z ^= z >> 27
    z = z * 0x94D049BB133111EB & MASK
    return z ^ (z >> 31)


def _by_definition(data: bytes, key: int) -> int:
    data += b"\0" * (-len(data) % 4)
    words = np.frombuffer(data, "<u4").tolist()
    return sum(_mix(((i << 32) | w) ^ key) for i, w in enumerate(words)) & MASK


@pytest.mark.parametrize("nbytes", [1, 3, 4, 5, 4097])
def test_short_outputs_and_their_byte_tails_digest_as_defined(nbytes):
    data = np.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=np.uint8)
    key = new_key()
    assert output_digest(data, key) == _by_definition(data.tobytes(), key)


def test_an_output_of_several_pieces_digests_as_one_word_list():
    data = np.random.default_rng(7).integers(-2**31, 2**31, 2 * PIECE_WORDS + 3, dtype=np.int32)
    assert output_digest(data, 12345) == _by_definition(data.tobytes(), 12345)


def test_any_one_changed_word_and_another_key_change_the_digest():
    data = np.random.default_rng(1).standard_normal(3000).astype(np.float32)
    key = new_key()
    digest = output_digest(data, key)
    for i in range(data.size):
        changed = data.copy()
        changed.view(np.uint32)[i] ^= np.uint32(1 << (i % 32))
        assert output_digest(changed, key) != digest, i
    assert output_digest(data, key ^ 1) != digest
    assert output_digest(data.reshape(30, 100), key) == digest   # the bytes, whatever the shape
