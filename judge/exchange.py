"""Exchange files: where bulk data lies between the judge side and its children.

A test's buffers lie in the runner's exchange file, each one page-aligned: random guard bytes, the
payload (inputs as the oracle made them, outputs filled with the sentinel), the padding up to the
alignment and more random guard bytes. On the CPU the runner maps these very pages as the device
memory solve() works on; on the GPU it uploads them and copies them back after each call. The judge
side reads them with pread() only, so a child that shrinks a file makes reads short (reported),
never a fault in the judge. Everything here works on bytes: the judge side needs no NumPy.
"""
from __future__ import annotations

import mmap
import os
import stat
import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from judge.protocol import BufferSlot

GUARD_BYTES = 4096      # random bytes before and after every buffer
ALIGNMENT = 256         # what cudaMalloc guarantees, so vectorized loads stay legal
PAGE = mmap.PAGESIZE
CHUNK = 64 << 20        # copies between files go through a buffer this large

# Outputs start as this pattern unless declared zeroed: a quiet NaN with a recognizable payload
# for floats, 0xCD bytes for integers.
SENTINEL_BITS = {"float16": ("<H", 0x7E6D), "float32": ("<I", 0x7FC0CDCD), "float64": ("<Q", 0x7FF8CDCDCDCDCDCD)}


class ShortRead(Exception):
    """A file (open as `fd`) held fewer bytes than its message said: the child that wrote it changed it."""

    def __init__(self, fd: int, message: str):
        super().__init__(message)
        self.fd = fd


_releaser = ThreadPoolExecutor(1, thread_name_prefix="release")


def release(fd: int, path: Path) -> None:
    """Close and delete a file the judge is done with, on a thread of its own: giving a large file's
    pages back takes the kernel milliseconds per 100 MB, which no test should wait for."""
    def close_and_unlink() -> None:
        os.close(fd)
        path.unlink(missing_ok=True)
    _releaser.submit(close_and_unlink)


def round_up(n: int, to: int) -> int:
    return (n + to - 1) // to * to


def sentinel(dtype: str, itemsize: int) -> bytes:
    """One element of the sentinel pattern, as raw bytes."""
    if dtype in SENTINEL_BITS:
        return struct.pack(*SENTINEL_BITS[dtype])
    return b"\xcd" * itemsize


def reset_pattern(param) -> bytes:
    """The bytes an output parameter (judge.problems.model.Param) starts as, over and over: sentinel or
    zeros, as the problem declares."""
    return b"\0" if param.init == "zeros" else sentinel(param.dtype, param.itemsize)


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


def read_bytes(fd: int, offset: int, nbytes: int) -> bytearray:
    out = bytearray(nbytes)
    read_into(fd, offset, memoryview(out))
    return out


def read_into(fd: int, offset: int, view: memoryview) -> None:
    """Fill `view` with the bytes at `offset`; ShortRead when the file ends first."""
    done, nbytes = 0, len(view)
    while done < nbytes:
        got = os.preadv(fd, [view[done:]], offset + done)
        if got <= 0:
            raise ShortRead(fd, f"{nbytes - done} of {nbytes} bytes at offset {offset} are missing")
        done += got


def write_bytes(fd: int, offset: int, data) -> None:
    """Any C-contiguous buffer (bytes, an array) at `offset`."""
    view, done = memoryview(data).cast("B"), 0
    while done < len(view):
        done += os.pwrite(fd, view[done:done + CHUNK], offset + done)


def fill(fd: int, offset: int, nbytes: int, pattern: bytes) -> None:
    """`nbytes` from `offset` with `pattern` over and over (`nbytes` is a multiple of its length)."""
    chunk, done = memoryview(pattern * (min(nbytes, CHUNK) // len(pattern))), 0
    while done < nbytes:
        n = min(len(chunk), nbytes - done)
        write_bytes(fd, offset + done, chunk[:n])
        done += n


def copy_range(src: int, src_offset: int, dst: int, dst_offset: int, nbytes: int) -> None:
    """`nbytes` from one file to another, in the kernel where it can."""
    done = 0
    try:
        while done < nbytes:
            moved = os.copy_file_range(src, dst, nbytes - done, src_offset + done, dst_offset + done)
            if moved <= 0:
                raise ShortRead(src, f"{nbytes - done} of {nbytes} bytes at offset {src_offset} are missing")
            done += moved
    except OSError:   # a file system without it: through this process
        for start in range(done, nbytes, CHUNK):
            n = min(CHUNK, nbytes - start)
            write_bytes(dst, dst_offset + start, read_bytes(src, src_offset + start, n))


def first_difference(fd_a: int, offset_a: int, fd_b: int, offset_b: int, nbytes: int) -> int | None:
    """The first byte at which two files' ranges differ, or None when they are equal. Read a chunk at
    a time into the same two buffers: a new buffer per chunk costs as much as the read (it is zeroed)."""
    a, b = bytearray(min(CHUNK, nbytes)), bytearray(min(CHUNK, nbytes))
    for start in range(0, nbytes, CHUNK):
        n = min(CHUNK, nbytes - start)
        if n < len(a):   # the last, shorter chunk
            a, b = bytearray(n), bytearray(n)
        read_into(fd_a, offset_a + start, memoryview(a))
        read_into(fd_b, offset_b + start, memoryview(b))
        if a != b:
            return start + first_differing_byte(a, b)
    return None


def first_differing_byte(a: bytes, b: bytes) -> int:
    """Of two unequal byte strings of one length: halving the range keeps every comparison in C."""
    low, high = 0, len(a)
    while high - low > 64:
        middle = (low + high) // 2
        if a[low:middle] != b[low:middle]:
            high = middle
        else:
            low = middle
    return next(i for i in range(low, high) if a[i] != b[i])


def create(path: Path, nbytes: int) -> int:
    """A new exchange file of `nbytes` (zeros), open for reading and writing. A child may write in the
    folder: whatever lies at `path` is removed first, and a link planted after that makes the call
    fail (OSError) rather than open the file it points to."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    os.ftruncate(fd, nbytes)
    return fd


def open_written(path: Path) -> int:
    """A file a child wrote, open for reading; OSError for anything but a regular file (a link could
    point at the host's files, a FIFO would block)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return fd
