"""One test, end to end: buffers, solve(), then the checks in the order ARCHITECTURE.md gives."""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from judge.backends.base import Backend, RunError
from judge.harness import buffers as B
from judge.problems.model import Problem
from judge.problems.plan import TestCase
from judge.problems.test_data import TestData, case_rng, expected_outputs, make_test_data
from judge.problems.tolerances import CheckReport, check_output
from judge.result import Mismatch, TestResult, Verdict

SHOW_INPUTS_UP_TO = 64   # elements in all inputs: small failing inputs are shown in full
RACE_CHECK_MAX_ELEMENTS = 1 << 18   # tests up to this size run in every thread order the backend offers


@dataclass
class Prepared:
    data: TestData
    buffers: dict[str, B.GuardedBuffer]

    def args(self, problem: Problem) -> list:
        return [self.buffers[p.name].address if p.is_pointer else self.data.scalars[p.name] for p in problem.params]


def make_case_data(problem: Problem, reference: ModuleType, case: TestCase, seed: int) -> tuple[TestData, np.random.Generator]:
    """A test's data, and the generator that goes on to place its buffers: CPU work only, so it may run in a thread."""
    rng = case_rng(seed, case.name)
    return make_test_data(problem, reference, case.size, case.distribution, rng), rng


def prepare(backend: Backend, problem: Problem, reference: ModuleType, case: TestCase, seed: int,
            made: tuple[TestData, np.random.Generator] | None = None) -> Prepared:
    data, rng = made or make_case_data(problem, reference, case, seed)
    bufs = {}
    for p in problem.params:
        if not p.is_pointer:
            continue
        buf = B.allocate(backend, p, data.arrays[p.name].size, rng)
        if p.is_input:
            B.write_payload(backend, buf, data.arrays[p.name])
        else:
            B.reset_output(backend, buf)
        bufs[p.name] = buf
    return Prepared(data, bufs)


def release(backend: Backend, prepared: Prepared) -> None:
    for buf in prepared.buffers.values():
        backend.free(buf.alloc)


def reset_outputs(backend: Backend, problem: Problem, prepared: Prepared) -> None:
    """Outputs back to the sentinel (or zeros), in/out parameters to their initial content, written
    from the host. Inputs proper stay as written: a write to them is caught after the call. (Timing
    resets its sets on the device: judge.harness.timing.)"""
    for p in problem.params:
        buf = prepared.buffers.get(p.name)
        if buf is None:
            continue
        if p.role.value == "out":
            B.reset_output(backend, buf)
        elif p.role.value == "inout":
            B.write_payload(backend, buf, prepared.data.arrays[p.name])


def read_outputs(backend: Backend, problem: Problem, prepared: Prepared) -> dict[str, np.ndarray]:
    return {p.name: B.read_payload(backend, prepared.buffers[p.name]).copy() for p in problem.params if p.is_output}


def compare_outputs(problem: Problem, reference: ModuleType, data: TestData, got: dict[str, np.ndarray],
                    expected: dict) -> CheckReport | None:
    """The first failing output's report, or None if all match."""
    if problem.tolerance.policy == "custom":
        report = reference.check(got, expected, **data.args())
        return None if report is None or report.ok else report
    for p in problem.params:
        if p.is_output:
            report = check_output(problem.tolerance, p.name, got[p.name], expected[p.name])
            if not report.ok:
                return report
    return None


def _all_equal(outputs: list[dict[str, np.ndarray]]) -> bool:
    first = outputs[0]
    return all(np.array_equal(first[k].view(np.uint8), o[k].view(np.uint8)) for o in outputs[1:] for k in first)


def _race_message(schedule: str, report: CheckReport, reports: dict[str, CheckReport | None]) -> str:
    m = report.first
    right = [s for s, r in reports.items() if r is None]
    contrast = (f"in {', '.join(right)} order the answer is right" if right
                else "every order is wrong, each differently")
    return (f"data race: the result depends on the order the threads of a block run in. Run in {schedule} order, "
            f"`{m.output}`[{m.index}] is {m.got} instead of {m.expected}; {contrast}. Look for a missing "
            f"__syncthreads() between writing shared memory and reading it, or an unprotected read-modify-write.")


def _first_input_change(problem: Problem, backend: Backend, prepared: Prepared) -> str | None:
    for p in problem.params:
        if p.role.value != "in":
            continue
        now = B.read_payload(backend, prepared.buffers[p.name])
        before = prepared.data.arrays[p.name]
        changed = np.flatnonzero(now.view(np.uint8) != before.view(np.uint8))
        if changed.size:
            i = int(changed[0]) // p.np_dtype.itemsize
            return (f"solve() wrote to its input `{p.name}` (declared const): element {i} was {before[i]}, "
                    f"now {now[i]}; {(changed.size + p.np_dtype.itemsize - 1) // p.np_dtype.itemsize} element(s) changed")
    return None


def _mismatch_message(problem: Problem, report: CheckReport, got: dict[str, np.ndarray]) -> str:
    m = report.first
    name = m.output.split(" ")[0]
    text = (f"`{m.output}`[{m.index}]: expected {m.expected}, got {m.got} "
            f"({m.count} of {m.total} elements wrong)")
    if name in got and " " not in m.output:
        untouched, first = B.untouched_count(got[name], problem.param(name))
        if untouched:
            text += f"; {untouched} element(s) were never written (still hold the sentinel), the first at index {first}"
    return text


def _shown_inputs(data: TestData) -> dict[str, list] | None:
    if sum(a.size for a in data.arrays.values()) > SHOW_INPUTS_UP_TO:
        return None
    return {**{k: v.tolist() for k, v in data.arrays.items()}, **{k: [v] for k, v in data.scalars.items()}}


def _error_message(err: RunError) -> str:
    return err.message if err.launch is None or err.launch.kernel in err.message else f"{err.message} in {err.launch.describe()}"


def run_case(backend: Backend, problem: Problem, reference: ModuleType, case: TestCase, seed: int,
             *, rerun: bool = False, on_start: Callable[[TestCase], None] = lambda c: None,
             on_finish: Callable[[TestCase], None] = lambda c: None) -> tuple[TestResult, bool]:
    """Judge one test. Returns its result and whether the backend is still usable.

    The deadline runs from on_start to on_finish: solve() and its synchronization, not the checks."""
    def result(verdict: Verdict, message: str = "", mismatch: Mismatch | None = None, shown=None) -> TestResult:
        return TestResult(name=case.name, size=case.size, distribution=case.distribution, verdict=verdict,
                          message=message, first_mismatch=mismatch, inputs_shown=shown)

    prepared = prepare(backend, problem, reference, case, seed)
    try:
        outputs_by_schedule: dict[str, dict[str, np.ndarray]] = {}
        small = sum(a.size for a in prepared.data.arrays.values()) <= RACE_CHECK_MAX_ELEMENTS
        def call(schedule: str):
            """One fresh call of solve() in `schedule`, under the deadline."""
            backend.set_schedule(schedule)
            reset_outputs(backend, problem, prepared)
            backend.reset()
            on_start(case)
            try:
                return backend.call_solve(prepared.args(problem))
            finally:
                on_finish(case)

        for schedule in backend.schedules if small else backend.schedules[:1]:
            err = call(schedule)
            if err is not None:
                return result(Verdict(err.verdict), _error_message(err)), not err.sticky
            for buf in prepared.buffers.values():
                damage = B.guard_damage(backend, buf)
                if damage:
                    launches = backend.launches()
                    hint = f"; kernels launched: {', '.join(l.describe() for l in launches[:3])}" if launches else ""
                    return result(Verdict.RE, damage + hint), True
            changed = _first_input_change(problem, backend, prepared)
            if changed:
                return result(Verdict.WA, changed), True
            outputs_by_schedule[schedule] = read_outputs(backend, problem, prepared)

        expected = expected_outputs(problem, reference, prepared.data)
        reports = {schedule: compare_outputs(problem, reference, prepared.data, got, expected)
                   for schedule, got in outputs_by_schedule.items()}
        failing = [schedule for schedule, report in reports.items() if report is not None]
        if failing:
            schedule, report = failing[0], reports[failing[0]]
            got = outputs_by_schedule[schedule]
            if len(outputs_by_schedule) > 1 and not _all_equal(list(outputs_by_schedule.values())):
                return result(Verdict.WA, _race_message(schedule, report, reports), report.first,
                              _shown_inputs(prepared.data)), True
            return result(Verdict.WA, _mismatch_message(problem, report, got), report.first,
                          _shown_inputs(prepared.data)), True
        if rerun:
            err = call(backend.schedules[0])
            if err is not None:
                return result(Verdict(err.verdict), "on the second run of the same input: " + _error_message(err)), not err.sticky
            again = read_outputs(backend, problem, prepared)
            report = compare_outputs(problem, reference, prepared.data, again, expected)
            if report is not None:
                return result(Verdict.WA, "the same input run twice gave different answers; the second run is wrong: "
                              + _mismatch_message(problem, report, again) +
                              ". Is there state left over between calls, or a race?", report.first), True
        return result(Verdict.AC), True
    finally:
        release(backend, prepared)

