"""Outputs against the reference, in the oracle: the problem's tolerance or its custom check."""
from __future__ import annotations

import numpy as np

from judge import exchange as X
from judge.problems.model import Param, Problem
from judge.problems.tolerances import CheckReport, check_output

SHOW_INPUTS_UP_TO = 64   # elements in all inputs: small failing inputs are shown in full


def compare_outputs(problem: Problem, got: dict[str, np.ndarray], expected: dict, custom_check) -> CheckReport | None:
    """The first failing output's report, or None if all match. `custom_check(got)`: the problem's own
    check, for the custom policy."""
    if problem.tolerance.policy == "custom":
        report = custom_check(got)
        return None if report is None or report.ok else report
    for p in problem.params:
        if p.is_output:
            report = check_output(problem.tolerance, p.name, got[p.name], expected[p.name])
            if not report.ok:
                return report
    return None


def untouched_count(got: np.ndarray, param: Param) -> tuple[int, int | None]:
    """How many output elements still hold the sentinel, and the first such index."""
    if param.init == "zeros":
        return 0, None
    pattern = np.frombuffer(X.sentinel(param.dtype, param.itemsize), np.uint8)
    rows = got.view(np.uint8).reshape(-1, param.itemsize)
    untouched = np.all(rows == pattern, axis=1)
    count = int(untouched.sum())
    return count, (int(np.argmax(untouched)) if count else None)


def shown_inputs(arrays: dict[str, np.ndarray], scalars: dict) -> dict[str, list | int | float] | None:
    """A small test's inputs in full (arrays as lists, scalars as they are); None for a large one."""
    if sum(a.size for a in arrays.values()) > SHOW_INPUTS_UP_TO:
        return None
    return {**{k: v.tolist() for k, v in arrays.items()}, **scalars}
