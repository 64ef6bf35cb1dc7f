"""One test, judged from the judge side: its buffers in the exchange file, solve() called by the
runner in each thread order, then the checks in the order ARCHITECTURE.md gives, on bytes the judge
side reads itself."""
from __future__ import annotations

import os
import zlib
from dataclasses import dataclass

import numpy as np

from judge import exchange as X
from judge.checking.compare import all_equal, compare_outputs, mismatch_message, race_message, shown_inputs
from judge.checking.data import CaseData, Oracle
from judge.checking.links import RunnerLink
from judge.problems.model import Problem
from judge.problems.plan import TestCase
from judge.protocol import BufferSlot, Call, Place, Placed, Release, Released, Returned
from judge.result import Mismatch, TestResult, Verdict

RACE_CHECK_MAX_ELEMENTS = 1 << 18   # tests up to this size run in every thread order the backend offers
TRANSFER_GBPS = 1.0                 # a slow host's copy rate, for the time a GPU runner needs to move a test's bytes


@dataclass
class Buffers:
    """A test's guarded buffers in the runner's exchange file, and the guard bytes written around them."""
    slots: dict[str, BufferSlot]
    guards: dict[str, tuple[np.ndarray, np.ndarray]]

    def payload(self, fd: int, name: str, dtype) -> np.ndarray:
        slot = self.slots[name]
        return X.read_bytes(fd, slot.offset + slot.payload_offset, slot.nbytes).view(dtype)

    def write_payload(self, fd: int, name: str, data: np.ndarray) -> None:
        slot = self.slots[name]
        X.write_bytes(fd, slot.offset + slot.payload_offset, data)

    def total_bytes(self) -> int:
        return X.end_of(list(self.slots.values()))


def lay_out(problem: Problem, data: CaseData, fd: int, rng: np.random.Generator, prefix: str = "", start: int = 0) -> Buffers:
    """Place the buffers of one input set from file offset `start`: guards, inputs, outputs reset."""
    pointers = [p for p in problem.params if p.is_pointer]
    slots = X.layout([(prefix + p.name, data.counts[p.name] * p.np_dtype.itemsize) for p in pointers], start)
    if X.end_of(slots) > os.fstat(fd).st_size:
        os.ftruncate(fd, X.end_of(slots))
    buffers = Buffers({s.name: s for s in slots}, {})
    for p, slot in zip(pointers, slots):
        before = rng.integers(0, 256, slot.payload_offset, dtype=np.uint8)
        # The padding up to the alignment counts as "after": a write there is still out of bounds.
        after = rng.integers(0, 256, slot.span - slot.payload_offset - slot.nbytes, dtype=np.uint8)
        X.write_bytes(fd, slot.offset, before)
        X.write_bytes(fd, slot.offset + slot.payload_offset + slot.nbytes, after)
        buffers.guards[slot.name] = (before, after)
    reset_outputs(problem, data, buffers, fd, prefix)
    for p in pointers:
        if p.role.value == "in":
            buffers.write_payload(fd, prefix + p.name, data.arrays[p.name])
    return buffers


def reset_outputs(problem: Problem, data: CaseData, buffers: Buffers, fd: int, prefix: str = "") -> list[str]:
    """Outputs back to the sentinel (or zeros), in/out parameters to their initial content; the names rewritten."""
    names = []
    for p in problem.params:
        if p.role.value == "out":
            pattern = X.reset_pattern(p.init, p.np_dtype)
            buffers.write_payload(fd, prefix + p.name, np.tile(pattern, data.counts[p.name] * p.np_dtype.itemsize // pattern.size))
        elif p.role.value == "inout":
            buffers.write_payload(fd, prefix + p.name, data.arrays[p.name])
        else:
            continue
        names.append(prefix + p.name)
    return names


def guard_damage(problem: Problem, buffers: Buffers, fd: int, prefix: str = "") -> str | None:
    """Which guard bytes changed, phrased as the out-of-bounds access that changed them."""
    for p in problem.params:
        if not p.is_pointer:
            continue
        slot = buffers.slots[prefix + p.name]
        before, after = buffers.guards[slot.name]
        itemsize, count = p.np_dtype.itemsize, slot.nbytes // p.np_dtype.itemsize
        now_after = X.read_bytes(fd, slot.offset + slot.payload_offset + slot.nbytes, after.size)
        changed_after = np.flatnonzero(now_after != after)
        if changed_after.size:
            first, last = int(changed_after[0]), int(changed_after[-1])
            return (f"out-of-bounds write: {last + 1} bytes after the end of `{p.name}` were overwritten "
                    f"({changed_after.size} bytes changed; the first at element index {count + first // itemsize}, "
                    f"one past the last valid index is {count})")
        changed_before = np.flatnonzero(X.read_bytes(fd, slot.offset, before.size) != before)
        if changed_before.size:
            first = int(changed_before[0])
            return (f"out-of-bounds write: {before.size - first} bytes before the start of `{p.name}` were overwritten "
                    f"(the lowest at element index {-((before.size - first + itemsize - 1) // itemsize)})")
    return None


def first_input_change(problem: Problem, data: CaseData, buffers: Buffers, fd: int) -> str | None:
    for p in problem.params:
        if p.role.value != "in":
            continue
        now, before = buffers.payload(fd, p.name, p.np_dtype), data.arrays[p.name]
        changed = np.flatnonzero(now.view(np.uint8) != before.view(np.uint8))
        if changed.size:
            i = int(changed[0]) // p.np_dtype.itemsize
            return (f"solve() wrote to its input `{p.name}` (declared const): element {i} was {before[i]}, "
                    f"now {now[i]}; {(changed.size + p.np_dtype.itemsize - 1) // p.np_dtype.itemsize} element(s) changed")
    return None


def read_outputs(problem: Problem, buffers: Buffers, fd: int, prefix: str = "") -> dict[str, np.ndarray]:
    return {p.name: buffers.payload(fd, prefix + p.name, p.np_dtype) for p in problem.params if p.is_output}


def guard_rng(seed: int, name: str) -> np.random.Generator:
    """The guard bytes' randomness: the judge side's own, never the oracle's."""
    return np.random.default_rng([seed, zlib.crc32(name.encode()), 1])


def call_deadline(deadline_s: float, buffers: Buffers) -> float:
    return deadline_s + 2.0 + buffers.total_bytes() / (TRANSFER_GBPS * 1e9)


def judge_test(problem: Problem, runner: RunnerLink, oracle: Oracle, fd: int, case: TestCase, data: CaseData, *,
               seed: int, schedules: list[str], deadline_s: float, rerun: bool) -> tuple[TestResult, bool, str]:
    """(result, whether the runner is still usable, the kernels' printf output)."""
    def result(verdict: Verdict, message: str = "", mismatch: Mismatch | None = None, shown=None) -> TestResult:
        return TestResult(name=case.name, size=case.size, distribution=case.distribution, verdict=verdict,
                          message=message, first_mismatch=mismatch, inputs_shown=shown)

    buffers = lay_out(problem, data, fd, guard_rng(seed, case.name))
    runner.send(Place(test=case.name, buffers=list(buffers.slots.values())))
    runner.expect((Placed,))
    printf: list[str] = []

    def call(schedule: str, reload: list[str]) -> Returned:
        runner.send(Call(test=case.name, schedule=schedule, scalars=data.scalars, reload=reload))
        returned = runner.expect((Returned,), call_deadline(deadline_s, buffers))
        printf.append(returned.printf)
        return returned

    def error_message(returned: Returned) -> str:
        err = returned.error
        return err.message if err.launch is None or err.launch.kernel in err.message else f"{err.message} in {err.launch.describe()}"

    def custom_check(got):
        return oracle.check(data.request, got)

    def finish(test_result: TestResult, usable: bool = True):
        if usable:
            runner.send(Release(test=case.name))
            runner.expect((Released,))
        return test_result, usable, "".join(printf)

    outputs_by_schedule: dict[str, dict[str, np.ndarray]] = {}
    small = data.size() <= RACE_CHECK_MAX_ELEMENTS
    reload: list[str] = []
    for schedule in schedules if small else schedules[:1]:
        returned = call(schedule, reload)
        if returned.error is not None:
            return finish(result(Verdict(returned.error.verdict), error_message(returned)), not returned.error.sticky)
        damage = guard_damage(problem, buffers, fd)
        if damage:
            launches = returned.launches
            hint = f"; kernels launched: {', '.join(l.describe() for l in launches[:3])}" if launches else ""
            return finish(result(Verdict.RE, damage + hint))
        changed = first_input_change(problem, data, buffers, fd)
        if changed:
            return finish(result(Verdict.WA, changed))
        outputs_by_schedule[schedule] = read_outputs(problem, buffers, fd)
        reload = reset_outputs(problem, data, buffers, fd)

    reports = {schedule: compare_outputs(problem, got, data.expected, custom_check)
               for schedule, got in outputs_by_schedule.items()}
    failing = [schedule for schedule, report in reports.items() if report is not None]
    if failing:
        schedule, report = failing[0], reports[failing[0]]
        got = outputs_by_schedule[schedule]
        shown = shown_inputs(data.arrays, data.scalars)
        if len(outputs_by_schedule) > 1 and not all_equal(list(outputs_by_schedule.values())):
            return finish(result(Verdict.WA, race_message(schedule, report, reports), report.first, shown))
        return finish(result(Verdict.WA, mismatch_message(problem, report, got), report.first, shown))
    if rerun:
        returned = call(schedules[0], reload)
        if returned.error is not None:
            return finish(result(Verdict(returned.error.verdict), "on the second run of the same input: "
                                 + error_message(returned)), not returned.error.sticky)
        again = read_outputs(problem, buffers, fd)
        report = compare_outputs(problem, again, data.expected, custom_check)
        if report is not None:
            return finish(result(Verdict.WA, "the same input run twice gave different answers; the second run is wrong: "
                                 + mismatch_message(problem, report, again) +
                                 ". Is there state left over between calls, or a race?", report.first))
    return finish(result(Verdict.AC))
