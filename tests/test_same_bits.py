"""The device check of timed outputs flags a call exactly when some bit of some output differs from
its first call's: in the 16-byte words, in the byte tail, and at addresses that are not 16-byte aligned."""
from __future__ import annotations

import numpy as np
import pytest

from judge.harness.same_bits import SameBits

pytestmark = pytest.mark.gpu


@pytest.fixture
def cp():
    return pytest.importorskip("cupy")


def _flags(cp, calls):
    same_bits = SameBits(cp, len(calls))
    same_bits.enqueue(calls)
    cp.cuda.Stream.null.synchronize()
    return same_bits.raised(len(calls))


@pytest.mark.parametrize("nbytes", [1, 15, 16, 17, (1 << 22) + 5])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_one_flipped_bit_anywhere_raises_its_call_alone(cp, nbytes, where):
    golden = cp.asarray(np.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=np.uint8))
    same, changed = golden.copy(), golden.copy()
    index = {"first": 0, "middle": nbytes // 2, "last": nbytes - 1}[where]
    changed[index] ^= np.uint8(0x10)
    assert _flags(cp, [[(same, golden)], [(changed, golden)], [(same, golden)]]) == [1]


def test_unaligned_views_are_compared_byte_by_byte(cp):
    base = cp.arange(4099, dtype=cp.uint8)
    golden = base[3:].copy()
    got = base[3:]                      # 3 bytes past an aligned address
    assert _flags(cp, [[(got, golden)]]) == []
    got[4000] = 0
    assert _flags(cp, [[(got, golden)]]) == [0]


def test_a_call_is_flagged_when_any_one_of_its_outputs_differs(cp):
    a = cp.ones(1000, cp.float32)
    b = cp.zeros(333, cp.int64)
    b_changed = b.copy()
    b_changed[-1] = 1
    assert _flags(cp, [[(a, a.copy()), (b_changed, b)], [(a, a.copy()), (b, b.copy())]]) == [0]


def test_flags_start_lowered_at_every_sample(cp):
    golden = cp.zeros(64, cp.uint32)
    changed = golden.copy()
    changed[5] = 7
    same_bits = SameBits(cp, 2)
    same_bits.enqueue([[(changed, golden)], [(changed, golden)]])
    same_bits.enqueue([[(golden.copy(), golden)]])
    cp.cuda.Stream.null.synchronize()
    assert same_bits.raised(2) == []
