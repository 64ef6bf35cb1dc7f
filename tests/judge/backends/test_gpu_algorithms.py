"""The GPU backend's device-wide algorithms (judge/backends/gpu_algorithms.py), call by call, against
NumPy: at one item, within one scan tile, just past it, and past one level of tile prefixes; stable
sorts with ties; selections, runs, bins and segments; and no compile at any call once load() ran."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from judge.backends import gpu_algorithms as ga

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[3]
SIZES = [1, 7, ga.TILE_ITEMS, ga.TILE_ITEMS + 1, ga.TILE_ITEMS * (ga.TILE_ITEMS + 3)]
CODE = {np.dtype(t): code for code, t in ga._DTYPES.items()}
OPS = {ga.OP_SUM: np.add, ga.OP_MIN: np.minimum, ga.OP_MAX: np.maximum}


@pytest.fixture(scope="module")
def algorithms():
    cp = pytest.importorskip("cupy")
    algorithms = ga.DeviceAlgorithms(cp)
    algorithms.load()
    return algorithms


def _data(n: int, dtype, seed: int = 0, spread: int = 50) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(n) * spread).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -spread), min(info.max, spread), n, endpoint=True).astype(dtype)


def _run(algorithms, kind: int, n: int, dtype, **fields):
    """Run one call; fields holding NumPy arrays are placed on the device and their pointers passed."""
    cp = algorithms.cp
    call = ga.AlgorithmCall(name=b"test", line=1, kind=kind, num_items=n, item_type=CODE[np.dtype(dtype)])
    device = {}
    for name, value in fields.items():
        if name in ("init", "step"):
            getattr(call, name)[:np.dtype(dtype).itemsize] = list(np.asarray(value, dtype).tobytes())
        elif isinstance(value, np.ndarray):
            device[name] = cp.asarray(value)
            setattr(call, name, device[name].data.ptr)
        else:
            setattr(call, name, value)
    algorithms.run(call)
    cp.cuda.get_current_stream().synchronize()
    return {name: array.get() for name, array in device.items()}


def _result(algorithms, kind, n, dtype, result_type, **fields):
    got = _run(algorithms, kind, n, dtype, result=np.zeros(1, result_type), result_type=CODE[np.dtype(result_type)],
               **fields)
    return got["result"][0], got


@pytest.mark.parametrize("n", [0, *SIZES])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.int64])
@pytest.mark.parametrize("op", [ga.OP_SUM, ga.OP_MIN, ga.OP_MAX])
def test_reduce_with_init(algorithms, n, dtype, op):
    items = _data(n, dtype)
    init = np.asarray(3, dtype)
    got, _ = _result(algorithms, ga.REDUCE, n, dtype, dtype, op=op, in_=items, init=init)
    want = OPS[op].reduce(np.append(items, init), dtype=dtype)
    if np.dtype(dtype).kind == "f":
        assert got == pytest.approx(want, rel=1e-4, abs=1e-6 * n * 50 + 1e-2)
    else:
        assert got == want


def test_reduce_into_a_wider_result_counts_flags(algorithms):
    flags = (_data(100_003, np.uint8) > 20).astype(np.uint8)
    got, _ = _result(algorithms, ga.REDUCE, flags.size, np.uint8, np.int64, op=ga.OP_SUM, in_=flags)
    assert got == int(flags.sum())


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", [ga.OP_MIN, ga.OP_MAX])
def test_arg_reduce_takes_the_first_of_ties(algorithms, n, op):
    items = _data(n, np.int32, spread=3)
    got, _ = _result(algorithms, ga.ARG_REDUCE, n, np.int32, np.int64, op=op, in_=items)
    assert got == (items.argmin() if op == ga.OP_MIN else items.argmax())


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("dtype, op", [(np.int32, ga.OP_SUM), (np.int32, ga.OP_MAX), (np.int16, ga.OP_MIN),
                                       (np.float64, ga.OP_SUM)])
def test_scan(algorithms, n, exclusive, dtype, op):
    items = _data(n, dtype)
    init = np.asarray(-5, dtype)
    got = _run(algorithms, ga.SCAN, n, dtype, op=op, exclusive=exclusive, init=init, in_=items,
               out=np.zeros(n, dtype))["out"]
    inclusive = OPS[op].accumulate(items, dtype=dtype)
    want = inclusive
    if exclusive:
        want = np.empty_like(inclusive)
        want[0] = init
        want[1:] = OPS[op](init, inclusive[:-1])
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9 * n * 50)
    else:
        np.testing.assert_array_equal(got, want)


def _order_bits(keys: np.ndarray) -> np.ndarray:
    """The unsigned key CUB's radix sort orders by (floats twiddled, -0.0 as +0.0)."""
    bits_type = np.dtype(f"u{keys.dtype.itemsize}")
    sign = bits_type.type(1) << bits_type.type(8 * keys.dtype.itemsize - 1)
    if keys.dtype.kind == "f":
        bits = (keys + keys.dtype.type(0)).view(bits_type)
        return np.where(bits & sign, ~bits, bits | sign).astype(np.uint64)
    if keys.dtype.kind == "i":
        return (keys.view(bits_type) ^ sign).astype(np.uint64)
    return keys.astype(np.uint64)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.float32, np.int8])
@pytest.mark.parametrize("descending", [0, 1])
@pytest.mark.parametrize("bits", [None, (2, 6)])
def test_radix_sort_pairs_is_stable(algorithms, n, dtype, descending, bits):
    keys = _data(n, dtype, spread=20)
    if np.dtype(dtype).kind == "f":
        keys[::5] = -0.0
    values = np.arange(n, dtype=np.int32)
    begin, end = bits or (0, 8 * np.dtype(dtype).itemsize)
    got = _run(algorithms, ga.RADIX_SORT, n, dtype, descending=descending, begin_bit=begin, end_bit=end,
               value_bytes=4, in_=keys, out=np.zeros_like(keys), values_in=values, values_out=np.zeros_like(values))
    digits = (_order_bits(keys) >> np.uint64(begin)) & np.uint64((1 << (end - begin)) - 1)
    order = np.argsort(~digits if descending else digits, kind="stable")
    np.testing.assert_array_equal(got["values_out"], values[order])
    np.testing.assert_array_equal(got["out"].view(f"u{keys.itemsize}"), keys[order].view(f"u{keys.itemsize}"))


def test_sort_in_place_moves_keys_and_values_together(algorithms):
    n = 300_001
    keys = _data(n, np.float64)
    values = np.arange(n, dtype=np.int64) * 3
    cp = algorithms.cp
    device_keys, device_values = cp.asarray(keys), cp.asarray(values)
    call = ga.AlgorithmCall(name=b"test", line=1, kind=ga.SORT, num_items=n, item_type=CODE[keys.dtype],
                            value_bytes=8, in_=device_keys.data.ptr, out=device_keys.data.ptr,
                            values_in=device_values.data.ptr, values_out=device_values.data.ptr)
    algorithms.run(call)
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(device_keys.get(), keys[order])
    np.testing.assert_array_equal(device_values.get(), values[order])


@pytest.mark.parametrize("n", SIZES)
def test_select_flagged(algorithms, n):
    items = _data(n, np.float32)
    flags = (_data(n, np.int32, seed=1) > 10).astype(np.int32)
    count, got = _result(algorithms, ga.SELECT_FLAGGED, n, np.float32, np.int32, aux_type=CODE[np.dtype(np.int32)],
                         in_=items, aux=flags, out=np.zeros(n, np.float32))
    kept = items[flags != 0]
    assert count == kept.size
    np.testing.assert_array_equal(got["out"][:count], kept)


@pytest.mark.parametrize("n", SIZES)
def test_unique_and_run_length_encode(algorithms, n):
    items = np.sort(_data(n, np.int32, spread=n // 3 + 1))
    heads = np.flatnonzero(np.concatenate([[True], items[1:] != items[:-1]]))
    lengths = np.diff(np.append(heads, n))
    count, got = _result(algorithms, ga.UNIQUE, n, np.int32, np.int32, in_=items, out=np.zeros(n, np.int32))
    assert count == heads.size
    np.testing.assert_array_equal(got["out"][:count], items[heads])
    count, got = _result(algorithms, ga.RUN_LENGTH, n, np.int32, np.int64, aux_type=CODE[np.dtype(np.int64)],
                         in_=items, out=np.zeros(n, np.int32), aux_out=np.zeros(n, np.int64))
    assert count == heads.size
    np.testing.assert_array_equal(got["aux_out"][:count], lengths)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.uint8])
def test_histogram_even(algorithms, dtype):
    samples = _data(1_000_003, dtype, spread=70)
    bins, lower, upper = 7, 3.0, 60.0
    got = _run(algorithms, ga.HISTOGRAM_EVEN, samples.size, dtype, num_segments=bins + 1, lower=lower, upper=upper,
               aux_type=CODE[np.dtype(np.int32)], in_=samples, aux_out=np.full(bins, -1, np.int32))["aux_out"]
    want, _ = np.histogram(samples.astype(np.float64), bins=bins, range=(lower, upper))
    inside = samples[(samples >= lower) & (samples < upper)]
    assert got.sum() == inside.size
    if np.dtype(dtype).kind in "iu":
        want = np.bincount(((inside.astype(np.int64) - 3) * bins) // 57, minlength=bins)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", [ga.OP_SUM, ga.OP_MIN])
def test_segmented_reduce_with_empty_segments(algorithms, op):
    items = _data(50_000, np.int32)
    cuts = np.array([0, 0, 5, 5, 1000, 49_999, 50_000], np.int64)
    init = np.asarray(2, np.int32)
    got = _run(algorithms, ga.SEGMENTED_REDUCE, items.size, np.int32, op=op, num_segments=cuts.size - 1,
               aux_type=CODE[np.dtype(np.int64)], init=init, in_=items, aux=cuts[:-1].copy(), aux_end=cuts[1:].copy(),
               out=np.zeros(cuts.size - 1, np.int32))["out"]
    want = [OPS[op].reduce(np.append(items[b:e], init), dtype=np.int32) for b, e in zip(cuts[:-1], cuts[1:])]
    np.testing.assert_array_equal(got, want)


def test_fill_sequence_count_copy(algorithms):
    n = 70_001
    out = _run(algorithms, ga.FILL, n, np.float32, init=-0.0, out=np.ones(n, np.float32))["out"]
    assert np.all(np.signbit(out)) and np.all(out == 0)
    out = _run(algorithms, ga.SEQUENCE, n, np.int16, init=7, step=-3, out=np.zeros(n, np.int16))["out"]
    np.testing.assert_array_equal(out, (np.int16(7) + np.arange(n).astype(np.int16) * np.int16(-3)).astype(np.int16))
    items = _data(n, np.int64, spread=4)
    count, _ = _result(algorithms, ga.COUNT, n, np.int64, np.int64, result_on_host=0, init=2, in_=items)
    assert count == np.count_nonzero(items == 2)
    copied = _run(algorithms, ga.COPY, n, np.int64, in_=items, out=np.zeros(n, np.int64))["out"]
    np.testing.assert_array_equal(copied, items)


def test_no_call_compiles_once_loaded(tmp_path):
    """Every kind of call, in a process whose kernel cache starts empty: after load() nothing is added."""
    script = f"""
import json, os, sys
sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "tests" / "judge" / "backends")!r}]
import cupy as cp
import numpy as np
import test_gpu_algorithms as t
from judge.backends import gpu_algorithms as ga
algorithms = ga.DeviceAlgorithms(cp)
algorithms.load()
before = sorted(os.listdir(os.environ["CUPY_CACHE_DIR"]))
for n in (5, 100_000):
    t.test_reduce_with_init(algorithms, n, np.float32, ga.OP_SUM)
    t.test_reduce_into_a_wider_result_counts_flags(algorithms)
    t.test_arg_reduce_takes_the_first_of_ties(algorithms, n, ga.OP_MAX)
    t.test_scan(algorithms, n, 1, np.int32, ga.OP_MAX)
    t.test_radix_sort_pairs_is_stable(algorithms, n, np.float32, 1, (2, 6))
    t.test_select_flagged(algorithms, n)
    t.test_unique_and_run_length_encode(algorithms, n)
t.test_sort_in_place_moves_keys_and_values_together(algorithms)
t.test_histogram_even(algorithms, np.int32)
t.test_segmented_reduce_with_empty_segments(algorithms, ga.OP_SUM)
t.test_fill_sequence_count_copy(algorithms)
print(json.dumps(dict(before=before, after=sorted(os.listdir(os.environ["CUPY_CACHE_DIR"])))))
"""
    env = dict(os.environ, CUPY_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    listing = json.loads(done.stdout.strip().splitlines()[-1])
    assert listing["before"], "load() compiled nothing into the kernel cache"
    assert listing["after"] == listing["before"]
