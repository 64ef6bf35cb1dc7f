"""Work on a large range a piece at a time on the judge's threads (judge/pieces.py)."""
from __future__ import annotations

import threading
import time

import pytest

import judge.pieces
from judge.pieces import each_piece, pieces, ranked


def test_pieces_cover_the_range_once_in_order():
    assert pieces(10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert pieces(0, 4) == []
    assert each_piece(lambda piece, label: (label, piece[0]), 10, 4, "abc") == [("a", 0), ("b", 4), ("c", 8)]


def test_pieces_run_on_several_threads_and_an_exception_reaches_the_caller():
    threads = set()
    each_piece(lambda piece: threads.add(threading.get_ident()), 64, 1)
    assert threading.get_ident() not in threads

    def fails(piece):
        if piece[0] == 5:
            raise ValueError("piece 5")

    with pytest.raises(ValueError, match="piece 5"):
        each_piece(fails, 10, 1)


def test_pieces_within_a_piece_finish():
    # Every pool thread busy with an outer piece that splits its own range: the inner pieces run on the
    # outer piece's thread, where waiting for the pool would never end.
    done = threading.Event()

    def outer(piece):
        return sum(each_piece(lambda inner: inner[1], 100, 10))

    def run():
        assert each_piece(outer, 64, 1) == [100] * 64
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(30)


def test_pieces_of_a_lower_rank_go_before_those_queued_earlier():
    # Every worker holds a piece of rank 5, three more of rank 5 wait in the queue, then two of rank 0 are
    # asked: the first worker let go takes the two of rank 0 before the three asked earlier.
    started, lock = [], threading.Lock()
    release = [threading.Event() for _ in range(judge.pieces.WORKERS)]
    holding = threading.Semaphore(0)

    def piece(part, label):
        with lock:
            started.append(label)
        if label == "hold":
            holding.release()
            release[part[0]].wait(30)

    def run(rank, labels):
        with ranked(rank):
            each_piece(piece, len(labels), 1, labels)

    early = threading.Thread(target=run, args=(5, ["hold"] * judge.pieces.WORKERS + ["early"] * 3), daemon=True)
    early.start()
    for _ in release:
        assert holding.acquire(timeout=30)
    late = threading.Thread(target=run, args=(0, ["urgent"] * 2), daemon=True)
    late.start()
    deadline = time.monotonic() + 30
    while len(judge.pieces._pool.queue) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    release[0].set()
    late.join(30)
    for event in release:
        event.set()
    early.join(30)
    assert started == ["hold"] * len(release) + ["urgent"] * 2 + ["early"] * 3
