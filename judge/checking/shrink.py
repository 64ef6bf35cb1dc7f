"""The smallest failing input: after a test fails, the same distribution at smaller sizes, found by
bisecting each integer size key in turn (largest first), then the simpler distributions (zeros,
all equal) at the smallest size found, within a time and probe budget.

Deterministic from the seed: a probe's data comes from its own name, as a test's does.
"""
from __future__ import annotations

import time
from typing import Callable

from judge.problems.plan import TestCase, size_label
from judge.result import TestResult, Verdict

SHRINK_BUDGET_S = 15.0
SHRINK_PROBES = 24
SHRINK_GROUP = "smaller"
SHRUNK_VERDICTS = (Verdict.WA, Verdict.RE)   # failures the process running solve() outlives
SIMPLER_DISTRIBUTIONS = ("zeros", "all-equal")


class ProbeFailed(Exception):
    """A probe could not run (the data could not be made, the run process stopped): shrinking ends."""


def probe_case(case: TestCase, size: dict[str, int | float], distribution: str | None = None) -> TestCase:
    distribution = distribution or case.distribution
    return TestCase(f"{SHRINK_GROUP}/{size_label(size)}/{distribution}", SHRINK_GROUP, size, distribution,
                    case.gpu_only, False)


def smaller_failure(case: TestCase, probe: Callable[[TestCase], TestResult],
                    budget_s: float = SHRINK_BUDGET_S, probes: int = SHRINK_PROBES) -> TestResult | None:
    """The smallest size found at which `case`'s distribution fails too (or a simpler distribution at
    that size), or None. `probe` judges one case (raising ProbeFailed when it cannot)."""
    ends = time.monotonic() + budget_s
    size, found = dict(case.size), None
    keys = sorted((k for k, v in size.items() if isinstance(v, int) and v > 1), key=lambda k: -size[k])
    try:
        for key in keys:
            low, high = 0, size[key]   # `high` fails; `low` is assumed to pass
            while high - low > 1 and probes > 0 and time.monotonic() < ends:
                middle = (low + high) // 2
                result = probe(probe_case(case, {**size, key: middle}))
                probes -= 1
                if result.verdict == Verdict.AC:
                    low = middle
                else:
                    high, found = middle, result
            size[key] = high
        for simpler in SIMPLER_DISTRIBUTIONS:
            if simpler == case.distribution or probes <= 0 or time.monotonic() >= ends:
                continue
            result = probe(probe_case(case, size, simpler))
            probes -= 1
            if result.verdict != Verdict.AC:
                return result
    except ProbeFailed:
        pass
    return found
