"""Outputs against the reference, in the oracle: the problem's tolerance or its custom check."""
from __future__ import annotations

import numpy as np

from judge import exchange as X
from judge.problems.model import Param, Problem
from judge.problems.tolerances import CheckReport
from judge.result import ArraySummary

SHOW_INPUTS_UP_TO = 64   # elements in all inputs: small failing inputs are shown in full


def compare_outputs(problem: Problem, got: dict[str, np.ndarray], expected: dict, custom_check) -> CheckReport | None:
    """The first failing output's report, or None if all match, under the problem's tolerance policy.
    `custom_check(got)`: the problem's own check, for the custom policy."""
    return problem.tolerance.rule.check_outputs(problem, got, expected, custom_check)


def untouched_count(got: np.ndarray, param: Param) -> tuple[int, int | None]:
    """How many output elements still hold the sentinel, and the first such index."""
    if param.init == "zeros":
        return 0, None
    pattern = np.frombuffer(X.sentinel(param.dtype, param.itemsize), np.uint8)
    rows = got.view(np.uint8).reshape(-1, param.itemsize)
    untouched = np.all(rows == pattern, axis=1)
    count = int(untouched.sum())
    return count, (int(np.argmax(untouched)) if count else None)


SUMMARY_ENDS = 8         # values a summarised input shows at each end (read in O(1): every test is summarised)


def shown_inputs(arrays: dict[str, np.ndarray], scalars: dict) -> dict[str, list | int | float | ArraySummary]:
    """A test's inputs as the learner sees them: arrays in full when all of them together are small, else
    each summarised (length, first and last values); scalars as they are."""
    if sum(a.size for a in arrays.values()) <= SHOW_INPUTS_UP_TO:
        return {**{k: v.tolist() for k, v in arrays.items()}, **scalars}
    return {**{k: _summary(v) for k, v in arrays.items()}, **scalars}


def _summary(a: np.ndarray) -> ArraySummary:
    flat = a.reshape(-1)
    return ArraySummary(size=int(flat.size), first=flat[:SUMMARY_ENDS].tolist(), last=flat[-SUMMARY_ENDS:].tolist())
