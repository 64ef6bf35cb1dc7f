"""Exchange files: where bulk data lies between the judge side and its children.

A test's buffers lie in the runner's exchange file, each one page-aligned: random guard bytes, the
payload (inputs as the oracle made them, outputs filled with the sentinel), the padding up to the
alignment and more random guard bytes. On the CPU the runner maps these very pages as the device
memory solve() works on; on the GPU it uploads them and copies them back after each call. The judge
side reads them with pread() only, so a child that shrinks a file makes reads short (reported),
never a fault in the judge.
"""
from __future__ import annotations

import mmap
import os
from pathlib import Path

import numpy as np

from judge.protocol import BufferSlot, Slot

GUARD_BYTES = 4096      # random bytes before and after every buffer
ALIGNMENT = 256         # what cudaMalloc guarantees, so vectorized loads stay legal
PAGE = mmap.PAGESIZE
CHUNK = 64 << 20        # copies between files go through a buffer this large

# Outputs start as this pattern unless declared zeroed: a quiet NaN with a recognizable payload
# for floats, 0xCD bytes for integers.
SENTINEL_BITS = {"float16": np.uint16(0x7E6D), "float32": np.uint32(0x7FC0CDCD),
                 "float64": np.uint64(0x7FF8CDCDCDCDCDCD)}


class ShortRead(Exception):
    """A file held fewer bytes than its message said: the child that wrote it changed it."""


def round_up(n: int, to: int) -> int:
    return (n + to - 1) // to * to


def sentinel(dtype) -> np.ndarray:
    """One element of the sentinel pattern, as raw bytes."""
    dtype = np.dtype(dtype)
    if dtype.name in SENTINEL_BITS:
        return np.array([SENTINEL_BITS[dtype.name]]).view(np.uint8)
    return np.full(dtype.itemsize, 0xCD, np.uint8)


def reset_pattern(init: str, dtype) -> np.ndarray:
    """The bytes an output starts as, over and over: sentinel or zeros, as the problem declares."""
    return np.zeros(1, np.uint8) if init == "zeros" else sentinel(dtype)


def buffer_slot(name: str, offset: int, nbytes: int) -> BufferSlot:
    """A guarded buffer of `nbytes` payload bytes at file offset `offset` (a page multiple)."""
    return BufferSlot(name=name, offset=offset, span=round_up(GUARD_BYTES + round_up(nbytes, ALIGNMENT) + GUARD_BYTES, PAGE),
                      payload_offset=GUARD_BYTES, nbytes=nbytes)


def layout(named_sizes: list[tuple[str, int]], start: int = 0) -> list[BufferSlot]:
    """Buffers one after another from `start`."""
    slots, offset = [], start
    for name, nbytes in named_sizes:
        slot = buffer_slot(name, offset, nbytes)
        slots.append(slot)
        offset += slot.span
    return slots


def end_of(slots: list[BufferSlot]) -> int:
    return max((s.offset + s.span for s in slots), default=0)


def read_bytes(fd: int, offset: int, nbytes: int) -> np.ndarray:
    out = np.empty(nbytes, np.uint8)
    view, done = memoryview(out), 0
    while done < nbytes:
        got = os.preadv(fd, [view[done:]], offset + done)
        if got <= 0:
            raise ShortRead(f"{nbytes - done} of {nbytes} bytes at offset {offset} are missing")
        done += got
    return out


def write_bytes(fd: int, offset: int, data: np.ndarray) -> None:
    view, done = memoryview(np.ascontiguousarray(data).view(np.uint8)).cast("B"), 0
    while done < len(view):
        done += os.pwrite(fd, view[done:done + CHUNK], offset + done)


def read_slot(fd: int, slot: Slot) -> np.ndarray:
    dtype = np.dtype(slot.dtype)
    return read_bytes(fd, slot.offset, slot.count * dtype.itemsize).view(dtype)


def copy_range(src: int, src_offset: int, dst: int, dst_offset: int, nbytes: int) -> None:
    for start in range(0, nbytes, CHUNK):
        n = min(CHUNK, nbytes - start)
        write_bytes(dst, dst_offset + start, read_bytes(src, src_offset + start, n))


def create(path: Path, nbytes: int) -> int:
    """A new exchange file of `nbytes` (zeros), open for reading and writing."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    os.ftruncate(fd, nbytes)
    return fd
