"""The verdict of a judge from its tests' results, as pure functions: the summary verdict and message,
the plan's tests that did not run, and the verdict of a runner that stopped."""
from __future__ import annotations

from judge.checking.links import RunnerBroke
from judge.problems.plan import TestCase
from judge.result import TestResult, Verdict
from sandbox.runner import OUTPUT_CAP_BYTES


GPU_ONLY_NOT_RUN = ("not run: GPU-only, left out on the CPU backend (its size takes long to emulate); it runs on a "
                    "GPU, or here with --include-gpu-only")


def stop_verdict(broke: RunnerBroke, outcome, deadline_s: float, budget_s: float) -> tuple[Verdict, str]:
    if broke.reason == "deadline":
        return Verdict.TLE, (f"solve() did not finish within {deadline_s:g} s (an endless loop, a deadlock, or far "
                             f"too slow); the process was killed")
    if broke.reason == "budget":
        return Verdict.TLE, (f"the whole judge of this submission passed its budget of {budget_s:g} s; the process "
                             f"was killed")
    if broke.reason == "output":
        return Verdict.OLE, f"the program wrote more than {OUTPUT_CAP_BYTES} bytes of output; the process was killed"
    if broke.reason in ("protocol", "failed"):
        return Verdict.RE, f"the process running solve() broke the judge's protocol: {broke.message}"
    how = f"signal {outcome.signal_name}" if outcome.signal_name else f"exit status {outcome.returncode}"
    if outcome.signal_name == "SIGSYS":
        cause = "a forbidden system call: the sandbox ended the process"
    elif outcome.signal_name == "SIGKILL":
        cause = "killed by solve() itself or by the system when the machine ran out of memory"
    else:
        cause = "a crash in host code, exit() or abort()"
    tail = outcome.output[-300:].strip()
    return Verdict.RE, (f"the process running solve() ended with {how} during this test ({cause})."
                        + (f" Output tail: {tail}" if tail else ""))


def summary(tests: list[TestResult], left_out: int, backend: str) -> tuple[Verdict, str]:
    """The verdict: the first failure's; IE if a test did not run for no failure; AC otherwise, saying
    how many of the planned tests it stands on when the backend left some out."""
    for t in tests:
        if t.verdict not in (Verdict.AC, Verdict.NR):
            return t.verdict, f"{t.verdict.value} on test {t.name}: {t.message}"
    if sum(t.verdict == Verdict.NR for t in tests) > left_out:
        return Verdict.IE, "the judge ended before every test ran"
    if left_out:
        return Verdict.AC, (f"{len(tests) - left_out} of {len(tests)} tests passed ({left_out} GPU-only "
                            f"test{'s' if left_out > 1 else ''} not run on the {backend.upper()} backend)")
    return Verdict.AC, f"all {len(tests)} tests passed"


def case_result(case: TestCase, verdict: Verdict, message: str) -> TestResult:
    return TestResult(name=case.name, size=case.size, distribution=case.distribution, verdict=verdict, message=message)


def with_left_out(planned: list[TestCase], tests: list[TestResult]) -> tuple[list[TestResult], int]:
    """The results in plan order, the planned tests that did not run (the GPU-only ones this backend left
    out) among them as NR, then any result outside the plan (the benchmark's, when timing failed); how
    many were left out."""
    ran = {t.name: t for t in tests}
    names = {c.name for c in planned}
    in_plan = [ran.get(c.name) or case_result(c, Verdict.NR, GPU_ONLY_NOT_RUN) for c in planned]
    return in_plan + [t for t in tests if t.name not in names], len(names - ran.keys())
