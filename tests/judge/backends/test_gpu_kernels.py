"""The judge's own device kernels. The check of timed outputs flags an input set exactly when some
bit of some output of the set differs from its first call's, and only for the sets a sample asks;
the fill writes its pattern over every byte asked and no other, one buffer or a table's rows. Both
in the 16-byte words, in the byte tail, and at addresses that are not 16-byte aligned."""
from __future__ import annotations

import os

import numpy as np
import pytest

from judge import exchange
from judge.runner.same_bits import SameBits

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def memory():
    pytest.importorskip("cupy")
    from judge.backends.gpu import DeviceMemory

    return DeviceMemory()


def _same_bits(memory, sets):
    """sets[k]: set k's (output, first output) pairs."""
    return SameBits(memory, [{str(i): got for i, (got, _) in enumerate(pairs)} for pairs in sets],
                    [{str(i): golden for i, (_, golden) in enumerate(pairs)} for pairs in sets])


def _flags(memory, sets, ks=None):
    same_bits = _same_bits(memory, sets)
    same_bits.enqueue(list(range(len(sets))) if ks is None else ks)
    memory.stream.synchronize()
    return same_bits.raised()


@pytest.mark.parametrize("nbytes", [1, 15, 16, 17, (1 << 22) + 5])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_one_flipped_bit_anywhere_raises_its_set_alone(memory, nbytes, where):
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


def test_a_set_is_flagged_when_any_one_of_its_outputs_differs(memory):
    cp = memory.cp
    a = cp.ones(1000, cp.float32)
    b = cp.zeros(333, cp.int64)
    b_changed = b.copy()
    b_changed[-1] = 1
    assert _flags(memory, [[(a, a.copy()), (b_changed, b)], [(a, a.copy()), (b, b.copy())]]) == [0]


def test_flags_start_lowered_at_every_sample(memory):
    cp = memory.cp
    golden = [cp.zeros(64, cp.uint32) for _ in range(3)]
    changed = golden[0].copy()
    changed[5] = 7
    same_bits = _same_bits(memory, [[(changed, golden[0])], [(golden[1].copy(), golden[1])],
                                    [(golden[2].copy(), golden[2])]])
    same_bits.enqueue([0, 1])
    same_bits.enqueue([1, 2])
    memory.stream.synchronize()
    assert same_bits.raised() == []


def test_a_sample_compares_its_own_sets_only_wrapping_around_the_rotation(memory):
    cp = memory.cp
    golden = [cp.full(1000, k, cp.float32) for k in range(4)]
    changed = [g.copy() for g in golden]
    changed[0][999] = -1
    changed[2][0] = -1
    sets = [[(changed[k], golden[k])] for k in range(4)]
    assert _flags(memory, sets, [3, 0]) == [0]
    assert _flags(memory, sets, [1]) == []
    assert _flags(memory, sets, [1, 2, 3, 0]) == [0, 2]
    with pytest.raises(ValueError, match="not consecutive"):
        _same_bits(memory, sets).enqueue([0, 2])


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("offset,nbytes", [(0, 0), (0, 8), (256, 4096), (8, 1000), (256, (1 << 22) + 40)])
def test_fill_writes_the_pattern_over_exactly_the_bytes_asked(memory, dtype, offset, nbytes):
    pattern = sentinel(dtype)
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


def test_fill_rows_fills_the_rows_asked_wrapping_around_and_nothing_else(memory):
    cp = memory.cp
    dtypes = ["float32", "uint8", "float64", "float16", "int64"]
    spans_at = [(0, 4096), (3, 1001), (256, 1 << 20), (8, 62), (0, 0)]   # (offset, bytes): aligned, unaligned, tails
    allocs = [memory.allocate(offset + nbytes + 64) for offset, nbytes in spans_at]
    for alloc, (offset, nbytes) in zip(allocs, spans_at):
        memory.write(alloc, 0, np.full(offset + nbytes + 64, 0x11, np.uint8))
    fill = memory.kernels.fill_rows([(alloc.address + offset, nbytes - nbytes % sentinel(d).size,
                                      sentinel(d))
                                     for alloc, (offset, nbytes), d in zip(allocs, spans_at, dtypes)])
    fill(3, 3)   # rows 3, 4, 0
    cp.cuda.Stream.null.synchronize()
    for row, (alloc, (offset, nbytes), d) in enumerate(zip(allocs, spans_at, dtypes)):
        pattern = sentinel(d)
        nbytes -= nbytes % pattern.size
        got = memory.read(alloc, 0, offset + nbytes + 64)
        expect = np.full(offset + nbytes + 64, 0x11, np.uint8)
        if row in (3, 4, 0):
            expect[offset:offset + nbytes] = np.tile(pattern, nbytes // pattern.size)
        np.testing.assert_array_equal(got, expect, err_msg=f"row {row}")
    for alloc in allocs:
        memory.free(alloc)


def sentinel(dtype: str) -> np.ndarray:
    return np.frombuffer(exchange.sentinel(dtype, np.dtype(dtype).itemsize), np.uint8)


@pytest.mark.parametrize("offset,nbytes", [(0, 1), (0, 7), (256, 4096), (3, 1001), (0, (1 << 24) + 6)])
def test_the_device_digest_is_the_oracles(memory, offset, nbytes):
    from judge.output_digest import new_key, output_digest

    data = np.random.default_rng(nbytes).integers(0, 256, offset + nbytes, dtype=np.uint8)
    alloc = memory.allocate(offset + nbytes)
    memory.write(alloc, 0, data)
    key = new_key()
    assert memory.digest(alloc, offset, nbytes, key) == output_digest(data[offset:], key)
    memory.free(alloc)


@pytest.mark.parametrize("nbytes", [1, (8 << 20) + 1, (96 << 20) + 4099])
def test_copies_between_a_file_and_the_device_keep_every_byte_and_touch_no_other(memory, tmp_path, nbytes):
    """From and to a file offset that is not page aligned, onto and from a place inside a larger
    allocation: the buffers' bytes and nothing beside them."""
    rng = np.random.default_rng(nbytes)
    payload = rng.integers(0, 256, nbytes, dtype=np.uint8)
    offset = 4096 * 3 + 77
    path = tmp_path / "pages.bin"
    path.write_bytes(bytes(offset) + payload.tobytes() + bytes(4096))
    alloc = memory.allocate(nbytes + 512)
    memory.write(alloc, 0, np.full(nbytes + 512, 0xA5, np.uint8))
    fd = exchange.create(tmp_path / "back.bin", offset + nbytes + 4096)
    source = open(path, "rb")
    try:
        memory.copy_in(source.fileno(), offset, alloc, 256, nbytes)
        on_device = memory.read(alloc, 0, nbytes + 512)
        assert (on_device[:256] == 0xA5).all() and (on_device[256 + nbytes:] == 0xA5).all()
        assert np.array_equal(on_device[256:256 + nbytes], payload)
        memory.copy_out(fd, offset, alloc, 256, nbytes)
        back = np.fromfile(tmp_path / "back.bin", np.uint8)
        assert not back[:offset].any() and not back[offset + nbytes:].any()
        assert np.array_equal(back[offset:offset + nbytes], payload)
    finally:
        source.close()
        os.close(fd)
