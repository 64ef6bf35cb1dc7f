"""One judge of one build, on the judge side: the tests in order (their data asked of the oracle ahead of
use, solve() called by the runner, every output checked here), a smaller failing input, timing, and
the Result assembled from what happened."""
from __future__ import annotations

import math
import os
import shutil
import time
from pathlib import Path
from typing import Callable, NamedTuple

from judge import exchange as X
from judge.compilation.for_backend import build
from judge.checking.console import ConsoleBudget
from judge.checking.data import Oracle
from judge.checking.hints import HintCollector
from judge.checking.links import OracleBroke, OracleLink, RunnerBroke, RunnerLink
from judge.checking.phases import PhaseClock
from judge.checking.shrink import SHRUNK_VERDICTS, ProbeFailed, smaller_failure
from judge.checking.tests import RACE_CHECK_MAX_ELEMENTS, CallPrintf, judge_test
from judge.checking.verdict import case_result, stop_verdict, summary, with_left_out
from judge.problems.loader import PROBLEM_FILE
from judge.problems.model import Problem
from judge.problems.plan import TestCase, elements
from judge.protocol import (BuildDone, BuildStarted, Finish, OracleReady, Progress, Ready, RunnerJob, ShrinkStarted,
                            TestDone, TestsPlanned, TestStarted, encode)
from judge.result import CompileInfo, OutputPart, Result, TestResult, Timing, Verdict
from sandbox import gpu_health
from sandbox.runner import OUTPUT_CAP_BYTES, STARTUP_DEADLINE_S, Child


EXCHANGE_FILE = "buffers"


STAGED_ARTIFACTS = ("cubin", "observed")   # build files besides the library that the runner opens
RUNNER_EXIT_S = 2.0            # a run process told to finish has this long before it is killed


class Ahead(NamedTuple):
    """How far ahead of its use the oracle makes tests' data."""
    tests: int        # tests whose data it may be making or holding at once
    elements: int     # and their size together, unless one test alone is larger


# On a GPU the tests before a large one take milliseconds each, so its data (made on the host, about a
# second per 10^8 elements) is asked for many tests ahead, to be made while they run, and so are the timing
# sets (1 << 30 holds two 10^8-element tests and two such sets: problem 83's); the oracle makes the pieces
# of the data needed first first (judge.pieces.ranked). On the CPU backend a test takes longer than its
# data, and a core making data not needed yet is one less emulating threads.
AHEAD = {"gpu": Ahead(tests=64, elements=1 << 30), "cpu": Ahead(tests=8, elements=1 << 26)}


EventHook = Callable[[Progress], None]


def _rerun_choice(cases: list[TestCase], counts: list[int]) -> str | None:
    """The test with the most elements (`counts`, one per case) that every backend runs: big enough that a race
    or stale state shows (by elements, not by its sizes added up: a 1000 x 1 x 1 strip is not larger than a 100^3 box)."""
    candidates = [i for i, c in enumerate(cases) if not c.gpu_only and not c.sample] or range(len(cases))
    return cases[max(candidates, key=counts.__getitem__)].name if candidates else None


def _stage(inbox: Path, path: str, prefix: str = "") -> str:
    """A build file linked (else copied) into the runner's inbox, its name after `prefix`; its path there."""
    target = inbox / (prefix + Path(path).name)
    target.unlink(missing_ok=True)   # a standby runner's inbox may hold the files of a judge that left early
    try:
        os.link(path, target)
    except OSError:
        shutil.copyfile(path, target)
    return str(target)


class Run:
    """One judge of one build: the tests in order, then timing, each verdict written here."""

    def __init__(self, problem: Problem, cases: list[TestCase], *, planned: list[TestCase], backend: str, seed: int,
                 deadline_s: float, budget_s: float, timed: bool, runner: Child, oracle: Child, on_event: EventHook,
                 fail_fast: bool = False, shrink: bool = False, clock: PhaseClock | None = None):
        self.problem, self.cases, self.backend, self.seed = problem, cases, backend, seed
        self.planned = planned   # `cases` and the GPU-only tests the CPU backend leaves out
        self.fail_fast, self.shrink = fail_fast, shrink
        self.runner_usable = True      # False once the process running solve() stopped or its device broke
        self.smaller: TestResult | None = None
        self.deadline_s, self.budget_s, self.timed, self.on_event = deadline_s, budget_s, timed, on_event
        self.runner_child, self.oracle_child = runner, oracle
        self.clock = clock or PhaseClock()
        self.runner, self.oracle_link = RunnerLink(runner, self.clock), OracleLink(oracle, self.clock)
        self.oracle = Oracle(self.oracle_link, problem, oracle.exchange)
        # The data this judge needs, asked of the oracle ahead of use, a request per item in `asked`
        self.wanted, self.copy_of = data_plan(problem, cases, seed, timed)
        self.asked: list[int] = []
        self.notes = [] if backend == "gpu" else ["timing needs a GPU: the CPU backend judges correctness only"]
        self.hints = HintCollector()   # what the CPU backend observed of memory accesses
        self.device: str | None = None
        self.isolation = list(runner.isolation)
        self.printf_bytes = 0
        self.output_from = runner.output_size()   # a standby runner's output file may hold what it wrote waiting
        self.test_output: list[tuple[str, int, int]] = []   # (test, first byte, end) of the run process's output
        self.printf_budget, self.output_budget = ConsoleBudget(), ConsoleBudget()

    def judge(self, source: str | bytes, *, filename: str, arch: str | None) -> Result:
        self.on_event(BuildStarted(backend=self.backend))
        self._ask_ahead(0)   # the oracle makes the first tests' data while the submission builds
        building = time.monotonic()
        built = build(self.problem, source, backend=self.backend, filename=filename, arch=arch)
        compile_info, library, artifacts = built.compile, built.library, built.artifacts()
        self.clock.add("build", time.monotonic() - building)
        self.on_event(BuildDone(compile=compile_info))
        if not compile_info.ok:
            first = next((d for d in compile_info.diagnostics if d.severity == "error"), None)
            where = f"{first.file}:{first.line}: " if first and first.line else ""
            return self._result(Verdict.CE, f"compile error: {where}{first.message if first else compile_info.log[:300]}",
                                compile_info, [], None)
        self.hints.library = Path(artifacts["observed"]) if "observed" in artifacts else None
        if self.backend == "cpu" and "observed" not in artifacts:
            self.notes.append("the build that observes every memory access failed, so data races and shared-memory "
                              "bounds were not checked access by access; only the thread orders and guard bytes were")
        try:
            tests, timing_result = self._run(library, artifacts)
        except OracleBroke as exc:
            return self._result(Verdict.IE, f"the judge failed: {str(exc).splitlines()[0]}", compile_info, [], None,
                                [f"internal error: {exc}"])
        tests, left_out = with_left_out(self.planned, tests)
        verdict, message = summary(tests, left_out, self.backend)
        return self._result(verdict, message, compile_info, tests, timing_result)

    def _result(self, verdict: Verdict, message: str, compile_info: CompileInfo, tests: list[TestResult],
                timing: Timing | None, more_notes: list[str] = ()) -> Result:
        return Result(problem=self.problem.key, backend=self.backend, device=self.device, isolation=self.isolation,
                      seed=self.seed, verdict=verdict, message=message, compile=compile_info, tests=tests,
                      timing=timing, hints=self.hints.summary(), notes=[*self.notes, *more_notes],
                      partial=any(t.verdict == Verdict.NR for t in tests), smaller_failure=self.smaller,
                      output=self._output(), phases=self.clock.phases())

    def _output(self) -> list[OutputPart]:
        """The run process's output since this judge began, in stretches: each test's, and what it wrote
        outside the tests (loading the library, timing, …). On the GPU a test's stretch is its printf."""
        stretches, at = [], self.output_from
        for test, begin, end in self.test_output:
            stretches += [(None, at, begin), (test, begin, end)]
            at = end
        stretches.append((None, at, self.runner_child.output_size()))
        return [OutputPart(test=test, text=self._output_text(self.output_budget, begin, end))
                for test, begin, end in stretches if end > begin and not (test and self.backend == "gpu")]

    def _output_text(self, budget: ConsoleBudget, begin: int, end: int) -> str:
        return budget.take(self.runner_child.read_output(begin, budget.room()), end - begin)

    def _with_console(self, result: TestResult, since: int, calls: list[CallPrintf]) -> TestResult:
        """`result` with the kernels' printf of its first call; the run process's output from byte `since`
        on is this test's. On the GPU the driver writes kernel printf into that output: it is the printf."""
        end = self.runner_child.output_size()
        self.test_output.append((result.name, since, end))
        if self.backend == "gpu":
            printf = self._output_text(self.printf_budget, since, end) if end > since else ""
        else:
            printf = self.printf_budget.take(calls[0].text.encode(), calls[0].bytes) if calls and calls[0].bytes else ""
        return result.model_copy(update={"printf": printf}) if printf else result

    def _run(self, library: Path, artifacts: dict) -> tuple[list[TestResult], Timing | None]:
        runner = self.runner_child
        if runner.on_take is not None:
            runner.on_take()
        fd = X.create(runner.exchange / EXCHANGE_FILE, 0)
        try:
            runner.send(encode(RunnerJob(backend=self.backend, problem_toml=(self.problem.folder / PROBLEM_FILE).read_text(encoding="utf-8"),
                                  library=_stage(runner.inbox, library),
                                  artifacts={k: _stage(runner.inbox, v, f"{k}-") if k in STAGED_ARTIFACTS else v
                                             for k, v in artifacts.items()},
                                  exchange=str(runner.exchange / EXCHANGE_FILE))))
            self.oracle_link.expect(OracleReady, STARTUP_DEADLINE_S)
            tests: list[TestResult] = []
            try:
                ready = self.runner.expect((Ready,), STARTUP_DEADLINE_S)
            except RunnerBroke as broke:
                if broke.reason == "failed":
                    raise OracleBroke(f"the run process failed to start: {broke.message}") from None
                return self._stopped(tests, self.cases[0], broke), None
            self.device = ready.device
            if ready.seccomp:
                self.isolation.append("seccomp")
            tests_done = self._tests(fd, ready.schedules, tests)
            timing_due = tests_done and self.timed and all(t.verdict == Verdict.AC for t in tests)
            if not timing_due:
                self.oracle.forget(self.asked[len(self.cases):])   # the timing sets asked ahead
            if self.shrink:
                self.smaller = self._smaller_failure(fd, ready.schedules, tests)
            timing_result = None
            if timing_due:
                from judge.checking.timing import measure

                benchmark = TestCase("benchmark", "benchmark", {}, "-", True, False)
                try:
                    timing_result = measure(self, self.oracle, fd, tests)
                except RunnerBroke as broke:   # died, overstayed or broke the protocol while timed
                    self._stopped(tests, benchmark, broke)
                    return tests, None
                except X.ShortRead as exc:
                    _oracle_short_read(exc, fd)
                    tests.append(case_result(benchmark, Verdict.RE, f"the process running solve() changed the "
                                              f"judge's buffer file during timing ({exc})"))
                    return tests, None
            for link in (self.runner, self.oracle_link):
                link.send(Finish())
            return tests, timing_result
        finally:
            os.close(fd)
            self.oracle.close()

    def _tests(self, fd: int, schedules: list[str], tests: list[TestResult]) -> bool:
        """Judge the planned tests in order, appending each result; whether every one ran."""
        counts = [elements(self.problem, c) for c in self.cases]
        rerun = _rerun_choice(self.cases, counts)
        self.on_event(TestsPlanned(tests=[c.name for c in self.cases], elements=counts))
        for i, case in enumerate(self.cases):
            self._ask_ahead(i + 1)   # the oracle makes the next tests' data while this one runs
            self.on_event(TestStarted(index=i, name=case.name))
            since = self.runner_child.output_size()
            try:
                result, usable, printf = self._judge_case(fd, schedules, case, self.oracle.take(self.asked[i]),
                                                          rerun=case.name == rerun, hints=self.hints)
            except RunnerBroke as broke:
                self._stopped(tests, case, broke, since)
                return False
            except X.ShortRead as exc:
                _oracle_short_read(exc, fd)
                tests.append(self._with_console(case_result(case, Verdict.RE, f"the process running solve() changed "
                                                             f"the judge's buffer file ({exc})"), since, []))
                self.runner_usable = False
                self._not_run(tests, "not run: the process running solve() broke its buffers")
                return False
            self.printf_bytes += sum(len(call.text.encode()) for call in printf)
            if self.printf_bytes + self.runner_child.output_size() > OUTPUT_CAP_BYTES:
                result = case_result(case, Verdict.OLE, f"the program wrote more than {OUTPUT_CAP_BYTES} bytes of "
                                      f"output (printf included)")
            result = self._with_console(result, since, printf)
            tests.append(result)
            self.on_event(TestDone(result=result))
            if not usable or result.verdict == Verdict.OLE:
                self.runner_usable = False
                self._not_run(tests, f"not run: the device was unusable after {case.name}")
                return False
            if self.fail_fast and result.verdict != Verdict.AC and i + 1 < len(self.cases):
                self.oracle.forget(self.asked[i + 1:])   # what it has not started making yet, it does not make
                self._not_run(tests, f"not run: the judge stopped at the first failing test, {case.name}")
                self.notes.append(f"stopped at the first failing test: {len(self.cases) - i - 1} of {len(self.cases)} "
                                  f"tests not run (`cudajudge judge --all` or Submit judges every test)")
                return False
        return True

    def _smaller_failure(self, fd: int, schedules: list[str], tests: list[TestResult]) -> TestResult | None:
        first = next((t for t in tests if t.verdict not in (Verdict.AC, Verdict.NR)), None)
        if first is None or first.verdict not in SHRUNK_VERDICTS or not self.runner_usable:
            return None
        case = next(c for c in self.cases if c.name == first.name)
        self.on_event(ShrinkStarted(test=case.name))
        return smaller_failure(case, lambda probe: self._probe(fd, schedules, probe))

    def _probe(self, fd: int, schedules: list[str], case: TestCase) -> TestResult:
        """Judge one case that is not a test of the plan (nothing is streamed); ProbeFailed when it cannot."""
        if not self.runner_usable:
            raise ProbeFailed(case.name)
        try:
            data = self.oracle.take(self.oracle.ask(case.name, case.size, case.distribution, self.seed))
        except OracleBroke as exc:   # e.g. a size the problem's reference does not take
            raise ProbeFailed(case.name) from exc
        try:
            result, usable, _ = self._judge_case(fd, schedules, case, data, rerun=False)
        except (RunnerBroke, X.ShortRead) as exc:
            self.runner_usable = False
            raise ProbeFailed(case.name) from exc
        self.runner_usable = usable
        return result

    def _judge_case(self, fd: int, schedules: list[str], case: TestCase, data, *, rerun: bool,
                    hints: HintCollector | None = None) -> tuple[TestResult, bool, list[CallPrintf]]:
        """judge_test on `data`, whose file and kept outputs the oracle then lets go, however it ended."""
        try:
            return judge_test(self.problem, self.runner, self.oracle, fd, case, data, seed=self.seed,
                              schedules=schedules, deadline_s=self.deadline_s, rerun=rerun, hints=hints,
                              link_folder=self.link_folder())
        finally:
            self.oracle.forget([data.request])
            data.close()

    def end_runner(self) -> None:
        """End the run process before the oracle times a baseline, so that nothing the submission left
        running on the GPU (a kernel that never returns, on a stream of its own) shares the device with
        the baseline's samples: told to finish, killed with its process group after RUNNER_EXIT_S, and on
        the GPU its context's release awaited."""
        child = self.runner_child
        doomed = gpu_health.descendants(child.pid()) if child.pid() is not None else set()
        self.runner.send(Finish())
        child.finish(wait_s=RUNNER_EXIT_S)
        if self.backend == "gpu" and doomed:
            gpu_health.wait_released(doomed)

    def link_folder(self) -> Path | None:
        """Where a GPU runner reads the inputs' payloads from (judge.checking.tests.lay_out)."""
        return self.runner_child.exchange if self.backend == "gpu" else None

    def request(self, i: int) -> int:
        """The oracle's request for the data of `wanted[i]`, asked now unless it was asked ahead."""
        self._ask_ahead(i)
        return self.asked[i]

    def _ask_ahead(self, i: int) -> None:
        """Ask for the data of `wanted[i]` and of the items after it, as many and as large together as
        the backend's AHEAD allows (item `i`'s always), unless asked already: the oracle makes them at
        once on its threads."""
        ahead = AHEAD[self.backend]
        while len(self.asked) < min(i + ahead.tests, len(self.wanted)):
            made = [c for j, (c, _, _) in enumerate(self.wanted[i:len(self.asked) + 1], i) if j not in self.copy_of]
            if len(self.asked) > i and sum(map(_elements, made)) > ahead.elements:
                return
            j = len(self.asked)
            case, seed, keep = self.wanted[j]
            self.asked.append(self.asked[self.copy_of[j]] if j in self.copy_of else
                              self.oracle.ask(case.name, case.size, case.distribution, seed, keep=keep,
                                              digest=digested(self.backend, case)))

    def _stopped(self, tests: list[TestResult], case: TestCase, broke: RunnerBroke,
                 since: int | None = None) -> list[TestResult]:
        """The runner stopped (or was stopped) during `case`: its verdict, and every later test not run.
        `since`: where the run process's output during a test of the plan began."""
        self.runner_usable = False
        outcome = self.runner_child.finish(wait_s=2.0) if broke.reason == "exited" else self.runner_child.outcome
        if outcome.gpu_released is False:
            self.notes.append("the GPU was still busy after the run was killed: this machine reports itself unhealthy "
                              "until the GPU is free again")
        verdict, message = stop_verdict(broke, outcome, self.deadline_s, self.budget_s)
        result = case_result(case, verdict, message)
        if since is not None:
            result = self._with_console(result, since, [])
        tests.append(result)
        self.on_event(TestDone(result=result))
        self._not_run(tests, f"not run: the process running solve() stopped during {case.name}")
        return tests

    def _not_run(self, tests: list[TestResult], why: str) -> None:
        done = {t.name for t in tests}
        for case in self.cases:
            if case.name not in done:
                tests.append(case_result(case, Verdict.NR, why))


def data_plan(problem: Problem, cases: list[TestCase], seed: int,
              timed: bool) -> tuple[list[tuple[TestCase, int, bool]], dict[int, int]]:
    """The data a judge needs, in order of use: (case, rng seed, kept for the baseline) of each test, then
    (timed) of each timing input set; and item -> the earlier item whose request it shares: timing sets
    that are copies of one set's data."""
    wanted = [(case, seed, False) for case in cases]
    if timed:   # NumPy's import, which the judge side makes only to time
        from judge.checking.timing import benchmark_sets

        wanted += [(case, set_seed, True) for case, set_seed in benchmark_sets(problem, seed)]
    return wanted, {j: first for j, item in enumerate(wanted) if item[2] and (first := wanted.index(item)) < j}


def digested(backend: str, case: TestCase) -> bool:
    """Whether to ask for a test's expected digests (judge/output_digest.py; the oracle gives them where
    equal bytes pass its check): a GPU runner's, on a test larger than those run in several schedules."""
    return backend == "gpu" and _elements(case) > RACE_CHECK_MAX_ELEMENTS


def _elements(case: TestCase) -> int:
    """A test's size as the product of its size's integers: its element count, or more (never less)."""
    return math.prod(v for v in case.size.values() if isinstance(v, int)) if case.size else 1


def _oracle_short_read(exc: X.ShortRead, runner_fd: int) -> None:
    """A short read of any file but the runner's exchange file is the oracle's fault (IE), not the learner's."""
    if exc.fd != runner_fd:
        raise OracleBroke(f"the reference process changed its data file ({exc})") from None
