"""One test, judged from the judge side: its buffers in the exchange file, solve() called by the
runner in each thread order, then the checks in the order ARCHITECTURE.md gives, on bytes the judge
side reads itself."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from judge import exchange as X
from judge.checking.data import CaseData, Got, Oracle
from judge.checking.hints import HintCollector
from judge.checking.links import RunnerLink
from judge.checking.messages import mismatch_message, race_message
from judge.problems.model import Problem
from judge.problems.plan import TestCase
from judge.protocol import (BufferSlot, Call, Checked, CopiedBack, CopyBack, PayloadSource, Place, Placed, Release,
                            Released, Returned, Slot)
from judge.result import Mismatch, TestResult, Verdict

RACE_CHECK_MAX_ELEMENTS = 1 << 18   # tests up to this size run in every thread order the backend offers, the first observed
TRANSFER_GBPS = 1.0                 # a slow host's copy rate, for the time a GPU runner needs to move a test's bytes


@dataclass
class Buffers:
    """A test's guarded buffers in the runner's exchange file, and the guard bytes written around them."""
    slots: dict[str, BufferSlot]
    guards: dict[str, tuple[bytes, bytes]]

    def payload_offset(self, name: str) -> int:
        slot = self.slots[name]
        return slot.offset + slot.payload_offset

    def total_bytes(self) -> int:
        return X.end_of(list(self.slots.values()))


def lay_out(problem: Problem, data: CaseData, fd: int, rng: random.Random, prefix: str = "", start: int = 0,
            link_folder: Path | None = None) -> Buffers:
    """Place the buffers of one input set from file offset `start`: guards and inputs. Outputs are left
    as they lie: the runner fills them where it places them (judge.protocol.Place). With a GPU runner's
    `link_folder`, an input (role "in") is not copied: the runner reads it from the oracle's data file,
    linked there."""
    pointers = [p for p in problem.params if p.is_pointer]
    slots = X.layout([(prefix + p.name, data.count(p.name) * p.itemsize) for p in pointers], start)
    if X.end_of(slots) > os.fstat(fd).st_size:
        os.ftruncate(fd, X.end_of(slots))
    linked = data.link_into(link_folder) if link_folder is not None else None
    buffers = Buffers({}, {})
    for p, slot in zip(pointers, slots):
        if linked is not None and p.role.value == "in":
            slot = slot.model_copy(update={"source": PayloadSource(file=linked, offset=data.arrays[p.name].offset)})
        buffers.slots[slot.name] = slot
        before = rng.randbytes(slot.payload_offset)
        # The padding up to the alignment counts as "after": a write there is still out of bounds.
        after = rng.randbytes(slot.span - slot.payload_offset - slot.nbytes)
        X.write_bytes(fd, slot.offset, before)
        X.write_bytes(fd, slot.offset + slot.payload_offset + slot.nbytes, after)
        buffers.guards[slot.name] = (before, after)
        if p.role.value != "out" and slot.source is None:
            _copy_initial(data, p.name, buffers, fd, prefix)
    return buffers


def _copy_initial(data: CaseData, name: str, buffers: Buffers, fd: int, prefix: str) -> None:
    slot = buffers.slots[prefix + name]
    X.copy_range(data.fd, data.arrays[name].offset, fd, buffers.payload_offset(prefix + name), slot.nbytes)


def reset_outputs(problem: Problem, data: CaseData, buffers: Buffers, fd: int) -> list[str]:
    """The names of the buffers the runner resets before the next call (judge.protocol.Call): outputs,
    which it fills, and in/out parameters, whose initial content is written again here for it to read."""
    names = []
    for p in problem.params:
        if p.role.value == "inout":
            _copy_initial(data, p.name, buffers, fd, "")
        if p.is_output:
            names.append(p.name)
    return names


def _changed(now: bytes, then: bytes) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(now, then)) if a != b]


def guard_damage(problem: Problem, buffers: Buffers, fd: int, prefix: str = "") -> str | None:
    """Which guard bytes changed, phrased as the out-of-bounds access that changed them."""
    for p in problem.params:
        if not p.is_pointer:
            continue
        slot = buffers.slots[prefix + p.name]
        before, after = buffers.guards[slot.name]
        itemsize, count = p.itemsize, slot.nbytes // p.itemsize
        now_after = X.read_bytes(fd, slot.offset + slot.payload_offset + slot.nbytes, len(after))
        if now_after != after:
            changed = _changed(now_after, after)
            first, last = changed[0], changed[-1]
            return (f"out-of-bounds write: {last + 1} bytes after the end of `{p.name}` were overwritten "
                    f"({len(changed)} bytes changed; the first at element index {count + first // itemsize}, "
                    f"one past the last valid index is {count})")
        now_before = X.read_bytes(fd, slot.offset, len(before))
        if now_before != before:
            first = _changed(now_before, before)[0]
            return (f"out-of-bounds write: {len(before) - first} bytes before the start of `{p.name}` were overwritten "
                    f"(the lowest at element index {-((len(before) - first + itemsize - 1) // itemsize)})")
    return None


def first_input_change(problem: Problem, data: CaseData, buffers: Buffers, fd: int,
                       unchanged: frozenset[str] = frozenset()) -> str | None:
    """How solve() changed an input, if it did; inputs the runner found `unchanged` on the device are not
    read (their payload was not copied back: a claim, like the guard bytes a submission could restore)."""
    for p in problem.params:
        if p.role.value != "in" or p.name in unchanged:
            continue
        here, there, nbytes = buffers.payload_offset(p.name), data.arrays[p.name].offset, buffers.slots[p.name].nbytes
        at = X.first_difference(fd, here, data.fd, there, nbytes)
        if at is None:
            continue
        import numpy as np   # here: only a failure needs values and counts

        def values(source: int, offset: int, count: int) -> np.ndarray:
            return np.frombuffer(X.read_bytes(source, offset, count * p.itemsize), p.np_dtype)

        i = at // p.itemsize
        now, before = values(fd, here + i * p.itemsize, 1)[0], values(data.fd, there + i * p.itemsize, 1)[0]
        changed, step = 0, X.CHUNK // p.itemsize
        for first in range(i, nbytes // p.itemsize, step):
            n = min(step, nbytes // p.itemsize - first)
            a, b = values(fd, here + first * p.itemsize, n), values(data.fd, there + first * p.itemsize, n)
            changed += int(np.any(a.view(np.uint8).reshape(n, p.itemsize) != b.view(np.uint8).reshape(n, p.itemsize),
                                  axis=1).sum())
        return (f"solve() wrote to its input `{p.name}` (declared const): element {i} was {before}, "
                f"now {now}; {changed} element(s) changed")
    return None


def copy_outputs(problem: Problem, buffers: Buffers, fd: int, oracle: Oracle, prefix: str = "") -> Got:
    """The outputs as they lie in the runner's exchange file now, into a file for the oracle."""
    got = oracle.got_file()
    try:
        for p in problem.params:
            if p.is_output:
                nbytes, offset = buffers.slots[prefix + p.name].nbytes, X.round_up(got.nbytes, 64)
                X.copy_range(fd, buffers.payload_offset(prefix + p.name), got.fd, offset, nbytes)
                got.slots[p.name] = Slot(offset=offset, count=nbytes // p.itemsize, dtype=p.dtype)
                got.nbytes = offset + nbytes
    except BaseException:
        got.close()
        raise
    return got


def guard_rng(seed: int, name: str) -> random.Random:
    """The guard bytes' randomness: the judge side's own, never the oracle's."""
    return random.Random(f"guards/{seed}/{name}")


def call_deadline(deadline_s: float, buffers: Buffers) -> float:
    return deadline_s + 2.0 + buffers.total_bytes() / (TRANSFER_GBPS * 1e9)


class CallPrintf(NamedTuple):
    """The kernels' printf of one call of solve(), as the runner reported it."""
    text: str     # its head
    bytes: int    # its length in all


class Ending(NamedTuple):
    """How a test ended: its result, and whether the runner can go on to the next test."""
    result: TestResult
    usable: bool = True


def _error_message(returned: Returned) -> str:
    err = returned.error
    return err.message if err.launch is None or err.launch.kernel in err.message else f"{err.message} in {err.launch.describe()}"


class OneTest:
    """One test on the judge side: its buffers placed in the runner's exchange file, the kernels' printf
    of each call, and the outputs copied for the oracle, which close() lets go."""

    def __init__(self, problem: Problem, runner: RunnerLink, oracle: Oracle, fd: int, case: TestCase, data: CaseData,
                 rng: random.Random, deadline_s: float, link_folder: Path | None):
        self.problem, self.runner, self.oracle, self.fd, self.case, self.data = problem, runner, oracle, fd, case, data
        self.deadline_s = deadline_s
        self.buffers = lay_out(problem, data, fd, rng, link_folder=link_folder)
        self.printf: list[CallPrintf] = []
        self.opened: list[Got] = []
        self.reset_names: list[str] = []   # the buffers the runner resets before the next call
        self.outputs_match = False   # the last call's outputs digested on the device as the expected ones

    def place(self) -> None:
        self.runner.send(Place(test=self.case.name, buffers=list(self.buffers.slots.values())))
        self.runner.expect((Placed,))

    def result(self, verdict: Verdict, message: str = "", mismatch: Mismatch | None = None, shown=None) -> TestResult:
        case = self.case
        return TestResult(name=case.name, size=case.size, distribution=case.distribution, verdict=verdict,
                          message=message, first_mismatch=mismatch, inputs_shown=shown)

    def call(self, schedule: str, observe: bool = False, by_digest: bool = False) -> Returned:
        """solve() called once by the runner in thread order `schedule`; `by_digest`: the outputs with expected
        digests are digested on the device (the runner gets their keys, never the digests)."""
        self.runner.send(Call(test=self.case.name, schedule=schedule, observe=observe, scalars=self.data.scalars,
                              reset=self.reset_names, digest=self.data.digest_keys() if by_digest else {}))
        returned = self.runner.expect((Returned,), call_deadline(self.deadline_s, self.buffers))
        self.printf.append(CallPrintf(returned.printf, returned.printf_bytes))
        return returned

    def digested(self, returned: Returned, by_digest: bool) -> bool:
        """Whether the call's outputs came back with their expected digests; if not, those left on the
        device are copied back now, for the oracle's check to say what is wrong."""
        if not by_digest or not self.data.digests:
            return False
        if self.data.digests_match(returned.digests):
            return True
        self.runner.send(CopyBack(test=self.case.name, buffers=list(self.data.digests)))
        self.runner.expect((CopiedBack,), call_deadline(0.0, self.buffers))
        return False

    def failed_call(self, returned: Returned, prefix: str = "") -> Ending:
        """The call's error as the test's result; a sticky error leaves the runner unusable."""
        err = returned.error
        return Ending(self.result(Verdict(err.verdict), prefix + _error_message(returned)), not err.sticky)

    def outputs(self) -> Got:
        self.opened.append(copy_outputs(self.problem, self.buffers, self.fd, self.oracle))
        return self.opened[-1]

    def call_and_inspect(self, schedule: str, observe: bool, hints: HintCollector | None,
                         by_digest: bool = False) -> Ending | None:
        """One call, then the checks that need no oracle: its error, the guards, the inputs. `by_digest`: as
        in call(); outputs whose digest is not the expected one are copied back then, for the oracle's check."""
        returned = self.call(schedule, observe=observe, by_digest=by_digest)
        if returned.error is not None:
            return self.failed_call(returned)
        self.outputs_match = self.digested(returned, by_digest)
        if observe and hints is not None:
            hints.add(self.case.name, returned.accesses, returned.traffic)
        damage = guard_damage(self.problem, self.buffers, self.fd)
        if damage:
            launches = returned.launches
            hint = f"; kernels launched: {', '.join(l.describe() for l in launches[:3])}" if launches else ""
            return Ending(self.result(Verdict.RE, damage + hint))
        changed = first_input_change(self.problem, self.data, self.buffers, self.fd, frozenset(returned.unchanged_inputs))
        if changed:
            return Ending(self.result(Verdict.WA, changed))
        return None

    def check(self, got_by_schedule: dict[str, Got]) -> Ending | None:
        """Each schedule's outputs checked by the oracle; a failure whose outputs differ between schedules
        is reported as a race."""
        data = self.data
        reports: dict[str, Checked] = {schedule: self.oracle.check(data.request, got.path, got.slots)
                                       for schedule, got in got_by_schedule.items()}
        failing = [schedule for schedule, report in reports.items() if report.mismatches]
        if not failing:
            return None
        schedule, report = failing[0], reports[failing[0]]
        gots = list(got_by_schedule.values())
        if len(gots) > 1 and not all(gots[0].same_as(g) for g in gots[1:]):
            return Ending(self.result(Verdict.WA, race_message(schedule, report, reports), report.first, data.shown))
        return Ending(self.result(Verdict.WA, mismatch_message(report), report.first, data.shown))

    def reset(self) -> None:
        """Outputs back to their state before the first call, for a call after another: the runner resets
        them with that call. After the last call they are left as they are."""
        self.reset_names = reset_outputs(self.problem, self.data, self.buffers, self.fd)

    def run_again(self, schedule: str, by_digest: bool) -> Ending | None:
        """The same input once more: an error or a wrong answer now is state left over from the first call."""
        self.reset()
        returned = self.call(schedule, by_digest=by_digest)
        if returned.error is not None:
            return self.failed_call(returned, "on the second run of the same input: ")
        if self.digested(returned, by_digest):
            return None
        again = self.outputs()
        report = self.oracle.check(self.data.request, again.path, again.slots)
        if report.mismatches:
            return Ending(self.result(Verdict.WA, "the same input run twice gave different answers; the second run is wrong: "
                                      + mismatch_message(report) +
                                      ". Is there state left over between calls, or a race?", report.first))
        return None

    def judge(self, schedules: list[str], rerun: bool, hints: HintCollector | None) -> Ending:
        """Small tests run in every schedule, the first observed; larger ones in the first only, their
        outputs digested on the device where the oracle gave their expected digests."""
        small = self.data.size() <= RACE_CHECK_MAX_ELEMENTS
        got_by_schedule: dict[str, Got] = {}
        for schedule in schedules if small else schedules[:1]:
            if got_by_schedule:
                self.reset()
            ended = self.call_and_inspect(schedule, small and schedule == schedules[0], hints, by_digest=not small)
            if ended is not None:
                return ended
            if self.outputs_match:   # equal digests: the bytes the oracle expects, nothing to copy or check
                continue
            got_by_schedule[schedule] = self.outputs()
        ended = self.check(got_by_schedule)
        if ended is None and rerun:
            ended = self.run_again(schedules[0], by_digest=not small)
        return ended or Ending(self.result(Verdict.AC))

    def finish(self, ended: Ending) -> tuple[TestResult, bool, list[CallPrintf]]:
        """The runner told to release the test's buffers, unless it is no longer usable."""
        if ended.usable:
            self.runner.send(Release(test=self.case.name))
            self.runner.expect((Released,))
        return ended.result, ended.usable, self.printf

    def close(self) -> None:
        for got in self.opened:
            got.close()


def judge_test(problem: Problem, runner: RunnerLink, oracle: Oracle, fd: int, case: TestCase, data: CaseData, *,
               seed: int, schedules: list[str], deadline_s: float, rerun: bool,
               hints: HintCollector | None = None, link_folder: Path | None = None) -> tuple[TestResult, bool, list[CallPrintf]]:
    """(result, whether the runner is still usable, the kernels' printf of each call in order).
    `link_folder`: a GPU runner's exchange folder, where it reads the inputs from (lay_out)."""
    test = OneTest(problem, runner, oracle, fd, case, data, guard_rng(seed, case.name), deadline_s, link_folder)
    test.place()
    try:
        return test.finish(test.judge(schedules, rerun, hints))
    finally:
        test.close()
