"""Check a problem folder: statically, and (given a judge function) by running its solutions."""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from judge.problems.api import SumBound
from judge.problems.expressions import evaluate
from judge.problems.loader import ProblemError, load_reference, parse_problem
from judge.problems.model import Problem
from judge.problems.plan import test_cases
from judge.problems.test_data import case_rng, expected_outputs, make_test_data
from judge.result import Verdict

STATEMENTS = ("statement.en.md", "statement.zh.md")
EXPECT_LINE = re.compile(r"^//\s*expect:\s*([A-Z]+)(\s+race)?\s*$")
RACE_WORDS = "data race"   # what the CPU backend's observer says of a race
MIN_ACCEPTED, MIN_REJECTED = 1, 2
VALIDATION_SEED = 20261129


@dataclass(frozen=True)
class Finding:
    file: str
    key: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


@dataclass(frozen=True)
class SolutionRun:
    path: Path
    expected: Verdict
    got: Verdict
    message: str
    race_expected: bool = False   # declared `// expect: WA race` and judged where races are observed

    @property
    def ok(self) -> bool:
        return self.expected == self.got and (not self.race_expected or RACE_WORDS in self.message)


@dataclass
class ValidationReport:
    folder: Path
    problem: Problem | None = None
    findings: list[Finding] = field(default_factory=list)
    runs: list[SolutionRun] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings and all(r.ok for r in self.runs)


# A judge function: (problem, solution path) -> (verdict, one-line message).
JudgeFn = Callable[[Problem, Path], tuple[Verdict, str]]


def expected_verdict(path: Path) -> Verdict | str:
    """The verdict a rejected solution declares on its first line, or a message saying what is wrong."""
    first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip()
    m = EXPECT_LINE.match(first)
    if not m:
        return f"first line must be '// expect: VERDICT' (or '// expect: WA race'), found {first[:60]!r}"
    if m.group(1) not in Verdict.__members__ or m.group(1) in ("AC", "IE"):
        allowed = ", ".join(v.value for v in Verdict if v not in (Verdict.AC, Verdict.IE))
        return f"verdict {m.group(1)!r} is not one a rejected solution can expect ({allowed})"
    if m.group(2) and m.group(1) != "WA":
        return f"only WA can be declared a race, found {first[:60]!r}"
    return Verdict(m.group(1))


def declares_race(path: Path) -> bool:
    """`// expect: WA race`: a data race, which the CPU backend must report as one at every seed."""
    m = EXPECT_LINE.match(path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip())
    return bool(m and m.group(2))


def solutions(problem: Problem) -> list[tuple[Path, Verdict]]:
    accepted = sorted((problem.folder / "solutions" / "accepted").glob("*.cu"))
    rejected = sorted((problem.folder / "solutions" / "rejected").glob("*.cu"))
    return [(p, Verdict.AC) for p in accepted] + [
        (p, v) for p in rejected if isinstance(v := expected_verdict(p), Verdict)]


def _check_files(problem: Problem, folder: Path) -> list[Finding]:
    findings = []
    for name in (*STATEMENTS, "starter.cu"):
        path = folder / name
        if not path.is_file() or not path.read_text(encoding="utf-8", errors="replace").strip():
            findings.append(Finding(str(path), None, "file is missing or empty"))
    for kind, least in (("accepted", MIN_ACCEPTED), ("rejected", MIN_REJECTED)):
        found = sorted((folder / "solutions" / kind).glob("*.cu"))
        if len(found) < least:
            findings.append(Finding(str(folder / "solutions" / kind), None,
                                    f"needs at least {least} .cu solution(s), found {len(found)}"))
        if kind == "rejected":
            findings += [Finding(str(p), "line 1", v) for p in found if not isinstance(v := expected_verdict(p), Verdict)]
    return findings


def _check_reference(problem: Problem) -> list[Finding]:
    """The reference must run on every CPU-size test and give outputs of the right size."""
    ref_file = str(problem.folder / "reference.py")
    try:
        reference = load_reference(problem)
    except ProblemError as exc:
        return [Finding(exc.file, exc.key, exc.message)]
    findings = []
    for case in test_cases(problem, include_gpu_only=False):
        try:
            data = make_test_data(problem, reference, case.size, case.distribution, case_rng(VALIDATION_SEED, case.name))
            out = expected_outputs(problem, reference, data)
        except Exception as exc:  # the reference is the instructor's code: report, don't crash
            findings.append(Finding(ref_file, f"test {case.name}", f"{type(exc).__name__}: {exc}"))
            continue
        for p in problem.params:
            if not p.is_output:
                continue
            value = out[p.name].value if isinstance(out[p.name], SumBound) else out[p.name]
            n = data.arrays[p.name].size
            if np.shape(value) != (n,):
                findings.append(Finding(ref_file, f"test {case.name}",
                                        f"reference() gave {np.shape(value)} for {p.name!r}, expected ({n},)"))
    if problem.tolerance.policy == "custom" and not callable(getattr(reference, "check", None)):
        findings.append(Finding(ref_file, "check", "tolerance policy 'custom' needs a function check(got, expected, **args)"))
    return findings


def _check_benchmark(problem: Problem) -> list[Finding]:
    toml = str(problem.folder / "problem.toml")
    findings = []
    for size in problem.benchmark.sizes:
        try:
            scalars = problem.scalars_for(size, np.random.default_rng(0))
            for key in ("bytes", "flops"):
                evaluate(getattr(problem.benchmark, key), scalars)
        except Exception as exc:
            findings.append(Finding(toml, f"benchmark size {size}", str(exc)))
    return findings


def validate_folder(folder: Path, judge: JudgeFn | None = None, jobs: int = 1, races_observed: bool = False) -> ValidationReport:
    """races_observed: the judge observes data races (the CPU backend), so a solution declared
    `// expect: WA race` must be rejected with a race message."""
    report = ValidationReport(folder)
    try:
        problem = parse_problem(folder)
    except ProblemError as exc:
        report.findings.append(Finding(exc.file, exc.key, exc.message))
        return report
    report.problem = problem
    report.findings += _check_files(problem, folder) + _check_benchmark(problem) + _check_reference(problem)
    if judge is not None and not report.findings:
        def run(entry: tuple[Path, Verdict]) -> SolutionRun:
            got, message = judge(problem, entry[0])
            return SolutionRun(entry[0], entry[1], got, message, races_observed and declares_race(entry[0]))
        with ThreadPoolExecutor(max_workers=jobs) as pool:   # each judge call is its own child process
            report.runs = list(pool.map(run, solutions(problem)))
    return report
