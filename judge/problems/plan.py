"""The test plan made concrete: the named test cases of a problem (sizes × distributions)."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from judge.problems.expressions import ExpressionError
from judge.problems.model import Problem


@dataclass(frozen=True)
class TestCase:
    name: str                      # "edge/n=33/uniform"
    group: str
    size: dict[str, int | float]
    distribution: str
    gpu_only: bool
    sample: bool


def size_label(size: dict[str, int | float]) -> str:
    return ",".join(f"{k}={v}" for k, v in size.items())


def test_cases(problem: Problem, *, include_gpu_only: bool = True, samples_only: bool = False,
               patterns: list[str] | None = None) -> list[TestCase]:
    cases = [
        TestCase(f"{g.name}/{size_label(size)}/{dist}", g.name, dict(size), dist, g.gpu_only, g.sample)
        for g in problem.tests for size in g.sizes for dist in g.distributions
    ]
    if not include_gpu_only:
        cases = [c for c in cases if not c.gpu_only]
    if samples_only:
        cases = [c for c in cases if c.sample]
    if patterns:
        cases = [c for c in cases if any(_matches(c, p) for p in patterns)]
    return cases


def elements(problem: Problem, case: TestCase) -> int:
    """The elements a test's buffers hold, its share of a judge's work (a buffer whose size needs a scalar
    drawn at random counts as 1)."""
    try:
        scalars = problem.scalars_for(case.size)
    except ExpressionError:
        scalars = dict(case.size)
    total = 0
    for p in problem.params:
        if p.is_pointer:
            try:
                total += problem.element_count(p, scalars)
            except ExpressionError:
                total += 1
    return max(total, 1)


def _matches(case: TestCase, pattern: str) -> bool:
    return case.name == pattern or case.group == pattern or fnmatch.fnmatchcase(case.name, pattern) \
        or case.name.startswith(pattern.rstrip("/") + "/")
