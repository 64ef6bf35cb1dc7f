"""The judge's own device kernels. The check of timed outputs flags a call exactly when some bit of
some output differs from its first call's; the fill writes its pattern over every byte asked and no
other. Both in the 16-byte words, in the byte tail, and at addresses that are not 16-byte aligned."""
from __future__ import annotations

import numpy as np
import pytest

from judge.harness.buffers import sentinel
from judge.harness.same_bits import SameBits

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def memory():
    pytest.importorskip("cupy")
    from judge.backends.gpu import DeviceMemory

    return DeviceMemory()


def _flags(memory, calls):
    same_bits = SameBits(memory, len(calls))
    same_bits.enqueue(calls)
    memory.stream.synchronize()
    return same_bits.raised(len(calls))


@pytest.mark.parametrize("nbytes", [1, 15, 16, 17, (1 << 22) + 5])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_one_flipped_bit_anywhere_raises_its_call_alone(memory, nbytes, where):
    cp = memory.cp
    golden = cp.asarray(np.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=np.uint8))
    same, changed = golden.copy(), golden.copy()
    index = {"first": 0, "middle": nbytes // 2, "last": nbytes - 1}[where]
    changed[index] ^= np.uint8(0x10)
    assert _flags(memory, [[(same, golden)], [(changed, golden)], [(same, golden)]]) == [1]


def test_unaligned_views_are_compared_byte_by_byte(memory):
    base = memory.cp.arange(4099, dtype=memory.cp.uint8)
    golden = base[3:].copy()
    got = base[3:]                      # 3 bytes past an aligned address
    assert _flags(memory, [[(got, golden)]]) == []
    got[4000] = 0
    assert _flags(memory, [[(got, golden)]]) == [0]


def test_a_call_is_flagged_when_any_one_of_its_outputs_differs(memory):
    cp = memory.cp
    a = cp.ones(1000, cp.float32)
    b = cp.zeros(333, cp.int64)
    b_changed = b.copy()
    b_changed[-1] = 1
    assert _flags(memory, [[(a, a.copy()), (b_changed, b)], [(a, a.copy()), (b, b.copy())]]) == [0]


def test_flags_start_lowered_at_every_sample(memory):
    cp = memory.cp
    golden = cp.zeros(64, cp.uint32)
    changed = golden.copy()
    changed[5] = 7
    same_bits = SameBits(memory, 2)
    same_bits.enqueue([[(changed, golden)], [(changed, golden)]])
    same_bits.enqueue([[(golden.copy(), golden)]])
    memory.stream.synchronize()
    assert same_bits.raised(2) == []


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("offset,nbytes", [(0, 0), (0, 8), (256, 4096), (8, 1000), (256, (1 << 22) + 40)])
def test_fill_writes_the_pattern_over_exactly_the_bytes_asked(memory, dtype, offset, nbytes):
    pattern = sentinel(np.dtype(dtype))
    nbytes -= nbytes % pattern.size   # whole elements, as the judge fills
    total = offset + nbytes + 64
    alloc = memory.allocate(total)
    memory.write(alloc, 0, np.full(total, 0x11, np.uint8))
    memory.fill(alloc, offset, nbytes, pattern)
    got = memory.read(alloc, 0, total)
    assert (got[:offset] == 0x11).all() and (got[offset + nbytes:] == 0x11).all()
    np.testing.assert_array_equal(got[offset:offset + nbytes], np.tile(pattern, nbytes // pattern.size))
    memory.free(alloc)


def test_a_pattern_that_does_not_tile_sixteen_bytes_is_refused(memory):
    alloc = memory.allocate(64)
    with pytest.raises(ValueError, match="3 bytes does not tile 16"):
        memory.fill(alloc, 0, 48, np.array([1, 2, 3], np.uint8))
    memory.free(alloc)
