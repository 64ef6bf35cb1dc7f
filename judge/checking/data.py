"""Test data as the oracle made it, asked for ahead of its use, and the oracle's checks of outputs."""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

from judge import exchange as X
from judge.checking.links import OracleBroke, OracleLink
from judge.problems.model import Problem
from judge.protocol import Check, Checked, DataMade, Forget, MakeData, OutputDigest, Slot
from judge.result import ArraySummary


@dataclass
class CaseData:
    """One test's (or timing set's) data: its inputs lie in the oracle's data file, open here as `fd`,
    until `close()`; the oracle keeps the expected outputs."""
    request: int
    scalars: dict[str, int | float]
    fd: int
    arrays: dict[str, Slot]           # every pointer parameter: where its initial content lies in `fd`
    shown: dict[str, list | int | float | ArraySummary] | None   # the inputs (whole or summarised) and scalars
    path: Path
    digests: dict[str, OutputDigest] = field(default_factory=dict)   # the expected outputs', where asked (judge/output_digest.py)
    linked: Path | None = None   # the file's link in a GPU runner's exchange folder

    def size(self) -> int:
        return sum(s.count for s in self.arrays.values())

    def digest_keys(self) -> dict[str, int]:
        """The keys of the expected outputs' digests: all a runner is told of them."""
        return {name: d.key for name, d in self.digests.items()}

    def digests_match(self, got: dict[str, int]) -> bool:
        """Whether a runner's digests (`got`) are the expected ones, for every output that has one."""
        return bool(self.digests) and all(got.get(name) == d.value for name, d in self.digests.items())

    def count(self, name: str) -> int:
        return self.arrays[name].count

    def link_into(self, folder: Path) -> str | None:
        """The file linked into a GPU runner's exchange folder, for the runner to upload the inputs' payloads
        from (judge.protocol.PayloadSource) instead of a copy in its exchange file; the link's name, or None
        where the two folders cannot share a file (the inputs are copied then)."""
        if self.linked is None:
            target = folder / f"inputs-{self.request}.bin"
            try:
                target.unlink(missing_ok=True)   # a standby runner's folder may hold an earlier judge's
                os.link(self.path, target)
            except OSError:
                return None
            self.linked = target
        return self.linked.name

    def close(self) -> None:
        X.release(self.fd, self.path, *([self.linked] if self.linked else []))


@dataclass
class Got:
    """Outputs copied from the runner's exchange file into a file of the oracle's, for it to check; once
    closed, the file goes back to `spare` for the next outputs."""
    path: Path
    fd: int
    slots: dict[str, Slot]
    nbytes: int
    spare: list[tuple[Path, int]]

    def same_as(self, other: Got) -> bool:
        return self.nbytes == other.nbytes and X.first_difference(self.fd, 0, other.fd, 0, self.nbytes) is None

    def close(self) -> None:
        self.spare.append((self.path, self.fd))


class Oracle:
    """The judge side's use of the oracle: data by request, made in the order asked, ahead of need."""

    def __init__(self, link: OracleLink, problem: Problem, folder: Path):
        self.link, self.problem, self.folder = link, problem, folder
        self._requests = itertools.count()
        self._checks = itertools.count()
        self._made: dict[int, DataMade] = {}   # data that arrived while another answer was awaited
        # Files for outputs whose check is done, kept for the next outputs: copying over a file's pages is
        # faster than into a new file's (400 MB: 5.5 against 1.3-3.9 GB/s on a 2-core machine).
        self._spare: list[tuple[Path, int]] = []

    def ask(self, test: str, size: dict, distribution: str, rng_seed: int, keep: bool = False,
            digest: bool = False) -> int:
        request = next(self._requests)
        self.link.send(MakeData(request=request, test=test, size=size, distribution=distribution, rng_seed=rng_seed,
                                keep=keep, digest=digest))
        return request

    def take(self, request: int) -> CaseData:
        """The data of `request` (asked earlier); the oracle answers in the order asked."""
        made = self._made.pop(request, None)
        while made is None:
            answer = self.link.expect(DataMade)
            if answer.request > request:
                raise OracleBroke(f"data for request {answer.request} came while {request} was due")
            if answer.request == request:
                made = answer
            else:   # asked ahead of a test that did not run: kept, as if it were still to be taken
                self._made[answer.request] = answer
        path = Path(made.file)
        if path.parent != self.folder:
            raise OracleBroke(f"the reference process wrote its data outside its folder: {path}")
        pointers = {p.name for p in self.problem.params if p.is_pointer}
        if set(made.arrays) != pointers:
            raise OracleBroke(f"the reference process made arrays {sorted(made.arrays)}, not {sorted(pointers)}")
        try:
            fd = X.open_written(path)
        except OSError as exc:
            raise OracleBroke(f"the reference process's data file cannot be read: {exc}") from None
        return CaseData(made.request, made.scalars, fd, made.arrays, made.shown, path, made.digests)

    def got_file(self) -> Got:
        """A file in the oracle's folder for outputs to check, open for writing: a spare one, else a new one."""
        if self._spare:
            return Got(*self._spare.pop(), {}, 0, self._spare)
        path = self.folder / f"got-{next(self._checks)}.bin"
        try:
            return Got(path, X.create(path, 0), {}, 0, self._spare)
        except OSError as exc:
            raise OracleBroke(f"the reference process's folder holds what is in the way of {path.name}: {exc}") from None

    def close(self) -> None:
        """Let go of the spare files for outputs."""
        while self._spare:
            path, fd = self._spare.pop()
            X.release(fd, path)

    def check(self, request: int, path: Path, got: dict[str, Slot]) -> Checked:
        """The oracle's check of the outputs at `got` in `path` against request's expected outputs."""
        self.link.send(Check(request=request, file=str(path), got=got))
        answer = self.reply(Checked)
        if answer.request != request:
            raise OracleBroke(f"a check of request {answer.request} came while {request} was due")
        return answer

    def reply(self, kind: type):
        """The oracle's next answer of `kind`; data made before it (asked ahead: the next tests', the timing
        sets') is kept for its take."""
        while isinstance(answer := self.link.expect((kind, DataMade)), DataMade):
            self._made[answer.request] = answer
        return answer

    def forget(self, requests: list[int]) -> None:
        if requests:
            self.link.send(Forget(requests=requests))
