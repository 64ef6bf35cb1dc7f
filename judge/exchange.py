"""Exchange files: where bulk data lies between the judge side and its children.

A test's buffers lie in the runner's exchange file, each one page-aligned: random guard bytes, the
payload (inputs as the oracle made them; outputs the runner fills with the sentinel where it places
them), the padding up to the alignment and more random guard bytes. On the CPU the runner maps these
very pages as the device memory solve() works on; on the GPU it uploads them and copies them back
after each call. The judge side reads them with pread() only, so a child that shrinks a file makes
reads short (reported), never a fault in the judge. Everything here works on bytes: the judge side
needs no NumPy.
"""
from __future__ import annotations

import atexit
import mmap
import os
import queue
import stat
import struct
import subprocess
import threading
from pathlib import Path

from judge.pieces import each_piece
from judge.protocol import BufferSlot

GUARD_BYTES = 4096      # random bytes before and after every buffer
ALIGNMENT = 256         # what cudaMalloc guarantees, so vectorized loads stay legal
PAGE = mmap.PAGESIZE
CHUNK = 64 << 20        # a write, or a copy between files that the kernel cannot make, goes a chunk at a time
SPAN = 16 << 20         # copies and comparisons of large ranges go a span at a time, spans on several threads

# Outputs start as this pattern unless declared zeroed: a quiet NaN with a recognizable payload
# for floats, 0xCD bytes for integers.
SENTINEL_BITS = {"float16": ("<H", 0x7E6D), "float32": ("<I", 0x7FC0CDCD), "float64": ("<Q", 0x7FF8CDCDCDCDCDCD)}


class ShortRead(Exception):
    """A file (open as `fd`) held fewer bytes than its message said: the child that wrote it changed it."""

    def __init__(self, fd: int, message: str):
        super().__init__(message)
        self.fd = fd


class _Releaser:
    """Closes and deletes the files the judge is done with, on a thread of its own: giving a large file's
    pages back takes the kernel milliseconds per 100 MB, which no test should wait for, nor the end of
    the process: what is left to delete then goes to a detached `rm` (hand_over)."""

    def __init__(self):
        self.todo: list[tuple[int, tuple[Path, ...]]] = []
        self.current: tuple[Path, ...] = ()   # the paths the thread is deleting now
        self.changed = threading.Condition()
        self.thread: threading.Thread | None = None

    def release(self, fd: int, paths: tuple[Path, ...]) -> None:
        with self.changed:
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, name="release", daemon=True)
                self.thread.start()
                atexit.register(self.hand_over)
            self.todo.append((fd, paths))
            self.changed.notify()

    def _loop(self) -> None:
        while True:
            with self.changed:
                while not self.todo:
                    self.changed.wait()
                fd, self.current = self.todo.pop(0)
            os.close(fd)
            for path in self.current:
                path.unlink(missing_ok=True)
            with self.changed:
                self.current = ()

    def hand_over(self) -> None:
        """At exit: the files not deleted yet are closed here and deleted by a process of their own, which
        the exit does not wait for (the thread's file in progress too: deleting it twice is harmless)."""
        with self.changed:
            left = list(self.current)
            for fd, paths in self.todo:
                os.close(fd)
                left += paths
            self.todo.clear()
        if left:
            subprocess.Popen(["rm", "-f", "--", *map(str, left)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)


_releaser = _Releaser()


def release(fd: int, *paths: Path) -> None:
    """Close a file the judge is done with and delete it (and its other links), in the background."""
    _releaser.release(fd, paths)


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
    """Any C-contiguous buffer (bytes, an array) at `offset`, spans on several threads."""
    view = memoryview(data).cast("B")
    each_span(lambda span: _write_span(fd, offset + span[0], view[span[0]:span[0] + span[1]]), len(view))


def _write_span(fd: int, offset: int, view: memoryview) -> None:
    done = 0
    while done < len(view):
        done += os.pwrite(fd, view[done:done + CHUNK], offset + done)


def each_span(work, nbytes: int) -> list:
    """work((start, length)) for each SPAN-long piece of a range of `nbytes`: copies through the page cache
    and reads run at one core's memory bandwidth, several at once move a large test's bytes several times
    faster."""
    return each_piece(work, nbytes, SPAN)


def copy_range(src: int, src_offset: int, dst: int, dst_offset: int, nbytes: int) -> None:
    """`nbytes` from one file to another, in the kernel where it can, spans on several threads."""
    each_span(lambda span: _copy_span(src, src_offset + span[0], dst, dst_offset + span[0], span[1]), nbytes)


def _copy_span(src: int, src_offset: int, dst: int, dst_offset: int, nbytes: int) -> None:
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
    """The first byte at which two files' ranges differ, or None when they are equal. Spans are compared
    on several threads, each span read into a pair of buffers that later spans reuse: a new buffer costs
    as much as the read (its pages are zeroed)."""
    free: queue.SimpleQueue[tuple[bytearray, bytearray]] = queue.SimpleQueue()

    def compare(span: tuple[int, int]) -> int | None:
        start, n = span
        if n < SPAN:   # the last, shorter span, in buffers of its length: comparing memoryviews is slow
            a, b = bytearray(n), bytearray(n)
        else:
            try:
                a, b = free.get_nowait()
            except queue.Empty:
                a, b = bytearray(SPAN), bytearray(SPAN)
        try:
            read_into(fd_a, offset_a + start, memoryview(a))
            read_into(fd_b, offset_b + start, memoryview(b))
            return None if a == b else start + first_differing_byte(a, b)
        finally:
            if len(a) == SPAN:
                free.put((a, b))

    found = [at for at in each_span(compare, nbytes) if at is not None]
    return min(found, default=None)


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
    fail (OSError) rather than open the file it points to. A new file is empty: truncating it to 0 anyway
    would make ext4 write its data back to disk when it is closed (its `auto_da_alloc`, meant for files
    rewritten in place), 0.1 s per 200 MB."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    if nbytes:
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
