"""Work on a large range a piece at a time, pieces on several threads: system calls that move bytes and
NumPy's loops and generators let go of the GIL, so a gigabyte goes several times faster than on one core."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")

_here = threading.local()   # .worker: this thread is one of the pool's


def _mark_worker() -> None:
    _here.worker = True


_workers = ThreadPoolExecutor(max(1, min(8, len(os.sched_getaffinity(0)))), thread_name_prefix="piece",
                              initializer=_mark_worker)


def pieces(total: int, size: int) -> list[tuple[int, int]]:
    """(start, length) of the `size`-long pieces of a range of `total`, the last one shorter."""
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def each_piece(work: Callable[..., T], total: int, size: int, *more: Iterable) -> list[T]:
    """work(piece, *the matching item of each of `more`) for each piece of a range of `total`, on the
    threads when there are several pieces (a hand-over costs more than a small range's whole work); each
    one's exception, if any, is raised here. Called from a piece's work (a reference that draws a large
    input inside its own pieces), the pieces run on the calling thread: waiting there for the pool's
    other threads could wait for ever."""
    parts = pieces(total, size)
    if len(parts) <= 1 or getattr(_here, "worker", False):
        return [work(part, *items) for part, *items in zip(parts, *more)]
    return list(_workers.map(work, parts, *more))
