"""Buffers with random guard bytes on both sides, sentinel-filled outputs, and the checks on them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from judge.backends.base import Allocation, Backend
from judge.problems.model import Param

GUARD_BYTES = 4096      # random bytes before and after every buffer
ALIGNMENT = 256         # what cudaMalloc guarantees, so vectorized loads stay legal

# Outputs start as this pattern unless declared zeroed: a quiet NaN with a recognizable payload
# for floats, 0xCD bytes for integers.
SENTINEL_BITS = {"float16": np.uint16(0x7E6D), "float32": np.uint32(0x7FC0CDCD),
                 "float64": np.uint64(0x7FF8CDCDCDCDCDCD)}


def sentinel(dtype: np.dtype) -> np.ndarray:
    """One element of the sentinel pattern, as raw bytes."""
    dtype = np.dtype(dtype)
    if dtype.name in SENTINEL_BITS:
        return np.array([SENTINEL_BITS[dtype.name]]).view(np.uint8)
    return np.full(dtype.itemsize, 0xCD, np.uint8)


@dataclass
class GuardedBuffer:
    param: Param
    count: int
    alloc: Allocation
    before: np.ndarray       # the guard bytes written before the payload
    after: np.ndarray

    @property
    def nbytes(self) -> int:
        return self.count * self.param.np_dtype.itemsize

    @property
    def address(self) -> int:
        return self.alloc.address + GUARD_BYTES

    @property
    def _after_offset(self) -> int:
        return GUARD_BYTES + _round_up(self.nbytes, ALIGNMENT)


def _round_up(n: int, to: int) -> int:
    return (n + to - 1) // to * to


def allocate(backend: Backend, param: Param, count: int, rng: np.random.Generator) -> GuardedBuffer:
    payload = _round_up(count * param.np_dtype.itemsize, ALIGNMENT)
    alloc = backend.allocate(GUARD_BYTES + payload + GUARD_BYTES)
    before = rng.integers(0, 256, GUARD_BYTES, dtype=np.uint8)
    # The padding up to the alignment counts as "after": a write there is still out of bounds.
    after = rng.integers(0, 256, payload - count * param.np_dtype.itemsize + GUARD_BYTES, dtype=np.uint8)
    buf = GuardedBuffer(param, count, alloc, before, after)
    backend.write(alloc, 0, before)
    backend.write(alloc, GUARD_BYTES + buf.nbytes, after)
    return buf


def write_payload(backend: Backend, buf: GuardedBuffer, data: np.ndarray) -> None:
    backend.write(buf.alloc, GUARD_BYTES, np.ascontiguousarray(data).view(np.uint8))


def reset_pattern(param: Param) -> np.ndarray:
    """The bytes an output starts as, over and over: sentinel or zeros, as the problem declares."""
    return np.zeros(1, np.uint8) if param.init == "zeros" else sentinel(param.np_dtype)


def reset_output(backend: Backend, buf: GuardedBuffer) -> None:
    backend.fill(buf.alloc, GUARD_BYTES, buf.nbytes, reset_pattern(buf.param))


def read_payload(backend: Backend, buf: GuardedBuffer) -> np.ndarray:
    return backend.read(buf.alloc, GUARD_BYTES, buf.nbytes).view(buf.param.np_dtype)


def guard_damage(backend: Backend, buf: GuardedBuffer) -> str | None:
    """Which guard bytes changed, phrased as the out-of-bounds access that changed them."""
    name, itemsize = buf.param.name, buf.param.np_dtype.itemsize
    before = backend.read(buf.alloc, 0, GUARD_BYTES)
    after = backend.read(buf.alloc, GUARD_BYTES + buf.nbytes, buf.after.size)
    changed_after = np.flatnonzero(after != buf.after)
    if changed_after.size:
        first, last = int(changed_after[0]), int(changed_after[-1])
        return (f"out-of-bounds write: {last + 1} bytes after the end of `{name}` were overwritten "
                f"({changed_after.size} bytes changed; the first at element index {buf.count + first // itemsize}, "
                f"one past the last valid index is {buf.count})")
    changed_before = np.flatnonzero(before != buf.before)
    if changed_before.size:
        first = int(changed_before[0])
        return (f"out-of-bounds write: {GUARD_BYTES - first} bytes before the start of `{name}` were overwritten "
                f"(the lowest at element index {-((GUARD_BYTES - first + itemsize - 1) // itemsize)})")
    return None


def untouched_count(got: np.ndarray, param: Param) -> tuple[int, int | None]:
    """How many output elements still hold the sentinel, and the first such index."""
    if param.init == "zeros":
        return 0, None
    pattern = sentinel(param.np_dtype)
    rows = got.view(np.uint8).reshape(-1, param.np_dtype.itemsize)
    untouched = np.all(rows == pattern, axis=1)
    count = int(untouched.sum())
    return count, (int(np.argmax(untouched)) if count else None)
