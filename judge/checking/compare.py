"""Outputs against the reference, and the words for what differs."""
from __future__ import annotations

import numpy as np

from judge import exchange as X
from judge.problems.model import Param, Problem
from judge.problems.tolerances import CheckReport, check_output

SHOW_INPUTS_UP_TO = 64   # elements in all inputs: small failing inputs are shown in full


def compare_outputs(problem: Problem, got: dict[str, np.ndarray], expected: dict, custom_check) -> CheckReport | None:
    """The first failing output's report, or None if all match. `custom_check(got)`: the problem's own
    check (run by the oracle), for the custom policy."""
    if problem.tolerance.policy == "custom":
        report = custom_check(got)
        return None if report.ok else report
    for p in problem.params:
        if p.is_output:
            report = check_output(problem.tolerance, p.name, got[p.name], expected[p.name])
            if not report.ok:
                return report
    return None


def all_equal(outputs: list[dict[str, np.ndarray]]) -> bool:
    first = outputs[0]
    return all(np.array_equal(first[k].view(np.uint8), o[k].view(np.uint8)) for o in outputs[1:] for k in first)


def race_message(schedule: str, report: CheckReport, reports: dict[str, CheckReport | None]) -> str:
    m = report.first
    right = [s for s, r in reports.items() if r is None]
    contrast = (f"in {', '.join(right)} order the answer is right" if right
                else "every order is wrong, each differently")
    return (f"data race: the result depends on the order the threads of a block run in. Run in {schedule} order, "
            f"`{m.output}`[{m.index}] is {m.got} instead of {m.expected}; {contrast}. Look for a missing "
            f"__syncthreads() between writing shared memory and reading it, or an unprotected read-modify-write.")


def untouched_count(got: np.ndarray, param: Param) -> tuple[int, int | None]:
    """How many output elements still hold the sentinel, and the first such index."""
    if param.init == "zeros":
        return 0, None
    pattern = X.sentinel(param.np_dtype)
    rows = got.view(np.uint8).reshape(-1, param.np_dtype.itemsize)
    untouched = np.all(rows == pattern, axis=1)
    count = int(untouched.sum())
    return count, (int(np.argmax(untouched)) if count else None)


def mismatch_message(problem: Problem, report: CheckReport, got: dict[str, np.ndarray]) -> str:
    m = report.first
    name = m.output.split(" ")[0]
    text = (f"`{m.output}`[{m.index}]: expected {m.expected}, got {m.got} "
            f"({m.count} of {m.total} elements wrong)")
    if name in got and " " not in m.output:
        untouched, first = untouched_count(got[name], problem.param(name))
        if untouched:
            text += f"; {untouched} element(s) were never written (still hold the sentinel), the first at index {first}"
    return text


def shown_inputs(arrays: dict[str, np.ndarray], scalars: dict) -> dict[str, list] | None:
    if sum(a.size for a in arrays.values()) > SHOW_INPUTS_UP_TO:
        return None
    return {**{k: v.tolist() for k, v in arrays.items()}, **{k: [v] for k, v in scalars.items()}}
