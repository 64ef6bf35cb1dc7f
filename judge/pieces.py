"""Work on a large range a piece at a time, pieces on several threads: system calls that move bytes and
NumPy's loops and generators let go of the GIL, so a gigabyte goes several times faster than on one core."""
from __future__ import annotations

import heapq
import itertools
import os
import threading
from concurrent.futures import Future
from contextlib import contextmanager
from functools import partial
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")

WORKERS = max(1, min(8, len(os.sched_getaffinity(0))))

_here = threading.local()   # .worker: this thread is one of the pool's; .rank: see ranked()


@contextmanager
def ranked(rank: int) -> Iterator[None]:
    """Pieces this thread asks for inside the block go before queued pieces of a higher rank, whenever
    those were asked: the oracle ranks a test's data by the order the tests run, so that a small test's
    pieces do not queue behind hundreds of a 10^8-element timing set's asked before them."""
    before = getattr(_here, "rank", 0)
    _here.rank = rank
    try:
        yield
    finally:
        _here.rank = before


class _Pool:
    """Worker threads that take the queued piece of the lowest rank first, the oldest of a rank first."""

    def __init__(self, workers: int):
        self.workers = workers
        self.queue: list[tuple[int, int, Future, Callable]] = []
        self.order = itertools.count()
        self.ready = threading.Condition()
        self.started = False

    def submit(self, rank: int, work: Callable[[], T]) -> Future:
        future: Future = Future()
        with self.ready:
            if not self.started:   # threads only in a process that has a large range to work on
                for i in range(self.workers):
                    threading.Thread(target=self._serve, name=f"piece_{i}", daemon=True).start()
                self.started = True
            heapq.heappush(self.queue, (rank, next(self.order), future, work))
            self.ready.notify()
        return future

    def _serve(self) -> None:
        _here.worker = True
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                _, _, future, work = heapq.heappop(self.queue)
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(work())
                except BaseException as exc:
                    future.set_exception(exc)


_pool = _Pool(WORKERS)


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
    rank = getattr(_here, "rank", 0)
    futures = [_pool.submit(rank, partial(work, part, *items)) for part, *items in zip(parts, *more)]
    return [future.result() for future in futures]
