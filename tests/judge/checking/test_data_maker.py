"""The oracle's data maker: answers in the order asked; requests forgotten before they start are never
made, and one forgotten while it is made is neither answered nor kept."""
from __future__ import annotations

import threading

from judge.checking.oracle import DataMaker
from judge.protocol import MakeData


class Maker:
    """Makes a request's data (here, its number) once `go` is set; records what it made and what it
    was told to let go of."""

    def __init__(self):
        self.go, self.made, self.let_go = threading.Event(), [], []

    def forget(self, request: int) -> None:
        self.let_go.append(request)

    def make(self, cmd: MakeData) -> int:
        self.go.wait(10)
        self.made.append(cmd.request)
        return cmd.request


def ask(request: int) -> MakeData:
    return MakeData(request=request, test=f"t{request}", size={"n": 1}, distribution="uniform", rng_seed=0)


def test_requests_forgotten_before_they_start_are_not_made_and_the_rest_answer_in_order():
    maker, sent = Maker(), []
    data = DataMaker(maker, sent.append, workers=1)
    try:
        for request in range(4):
            data.submit(ask(request))
        data.forget([0, 1, 2])   # 0 is being made; 1 and 2 wait behind it
        maker.go.set()
        data.finish()
    finally:
        data.stop()
    assert maker.made == [0, 3]
    assert sent == [3]
    assert maker.let_go.count(0) == 2   # when forgotten, and again once made


def test_large_data_is_made_while_smaller_data_asked_before_it_waits_and_still_answers_in_order():
    maker, sent = Maker(), []
    large_made = threading.Event()
    make = maker.make

    def made_in_turn(cmd: MakeData) -> int:
        if cmd.request == 2:   # the large one: made at once
            maker.made.append(2)
            large_made.set()
            return 2
        return make(cmd)

    maker.make = made_in_turn
    data = DataMaker(maker, sent.append, workers=1, large=lambda cmd: cmd.request == 2)
    try:
        for request in range(3):
            data.submit(ask(request))   # 0 holds the one ordinary worker; 1 waits behind it
        assert large_made.wait(10), "the large request waited behind the smaller ones"
        assert sent == []               # and is not answered before them
        maker.go.set()
        data.finish()
    finally:
        data.stop()
    assert maker.made[0] == 2 and sent == [0, 1, 2]
