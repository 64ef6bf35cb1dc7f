"""Test data as the oracle made it, read back by the judge side, and asked for ahead of its use."""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judge import exchange as X
from judge.checking.links import OracleBroke, OracleLink
from judge.problems.api import SumBound
from judge.problems.model import Problem
from judge.protocol import Check, Checked, DataMade, Forget, MakeData, Slot
from judge.problems.tolerances import CheckReport


@dataclass
class CaseData:
    request: int
    scalars: dict[str, int | float]
    arrays: dict[str, np.ndarray]     # inputs and in/out parameters' initial content (outputs proper: absent)
    counts: dict[str, int]            # every pointer parameter's element count
    expected: dict                    # output name -> array or SumBound; empty for a custom check

    def size(self) -> int:
        return sum(self.counts.values())


class Oracle:
    """The judge side's use of the oracle: data by request, made in the order asked, ahead of need."""

    def __init__(self, link: OracleLink, problem: Problem, folder: Path):
        self.link, self.problem, self.folder = link, problem, folder
        self._requests = itertools.count()
        self._made: dict[int, DataMade] = {}   # data that arrived while another answer was awaited

    def ask(self, test: str, size: dict, distribution: str, rng_seed: int, keep: bool = False) -> int:
        request = next(self._requests)
        self.link.send(MakeData(request=request, test=test, size=size, distribution=distribution, rng_seed=rng_seed,
                                keep=keep))
        return request

    def take(self, request: int, *, read_expected: bool = True) -> CaseData:
        """The data of `request` (asked earlier); the oracle answers in the order asked."""
        made = self._made.pop(request, None) or self.link.expect(DataMade)
        if made.request != request:
            raise OracleBroke(f"data for request {made.request} came while {request} was due")
        return self._read(made, read_expected)

    def _read(self, made: DataMade, read_expected: bool) -> CaseData:
        path = Path(made.file)
        if path.parent != self.folder:
            raise OracleBroke(f"the reference process wrote its data outside its folder: {path}")
        fd = os.open(path, os.O_RDONLY)
        try:
            arrays = {p.name: X.read_slot(fd, made.arrays[p.name]) for p in self.problem.params
                      if p.is_pointer and p.role.value != "out"}
            expected = {}
            for e in made.expected if read_expected else []:
                if e.array is not None:
                    expected[e.name] = X.read_slot(fd, e.array)
                elif e.sum_bound is not None:
                    b = e.sum_bound
                    expected[e.name] = SumBound(X.read_slot(fd, b.value), X.read_slot(fd, b.abs_terms),
                                                b.n_terms if isinstance(b.n_terms, int) else X.read_slot(fd, b.n_terms))
        except X.ShortRead as exc:
            raise OracleBroke(f"the reference process's data file is short: {exc}") from None
        finally:
            os.close(fd)
            if read_expected:
                path.unlink(missing_ok=True)
        return CaseData(made.request, made.scalars, arrays, {name: s.count for name, s in made.arrays.items()}, expected)

    def check(self, request: int, got: dict[str, np.ndarray]) -> CheckReport:
        """The problem's custom check of `got` against request's expected outputs (kept by the oracle)."""
        path = self.folder / f"got-{request}.bin"
        fd = X.create(path, 0)
        slots, offset = {}, 0
        try:
            for name, array in got.items():
                X.write_bytes(fd, offset, array)
                slots[name] = Slot(offset=offset, count=array.size, dtype=array.dtype.str)
                offset = X.round_up(offset + array.nbytes, 64)
        finally:
            os.close(fd)
        self.link.send(Check(request=request, file=str(path), got=slots))
        while isinstance(answer := self.link.expect((Checked, DataMade)), DataMade):
            self._made[answer.request] = answer   # asked before the check: the next test's data
        checked: Checked = answer
        path.unlink(missing_ok=True)
        return CheckReport(checked.mismatches, checked.total, checked.first)

    def forget(self, requests: list[int]) -> None:
        self.link.send(Forget(requests=requests))
