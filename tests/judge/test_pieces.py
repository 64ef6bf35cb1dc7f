"""Work on a large range a piece at a time on the judge's threads (judge/pieces.py)."""
from __future__ import annotations

import threading

import pytest

from judge.pieces import each_piece, pieces


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
