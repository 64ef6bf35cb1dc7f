"""Where a judge's timing phase goes: `python bench/timing_phases.py PROBLEM FILE`.

Judges FILE once with timing to warm the build and the children, then again with the judge side's steps
of the timing phase wrapped in clocks: the oracle's replies by kind (making data, checking, measuring the
copy bandwidth, timing the baseline), laying out buffers, and the runner's replies by kind, case by case.
Printed figures, not pass/fail.
"""
from __future__ import annotations

import functools
import sys
import time
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

import judge.checking.timing as timing
from judge.checking.links import OracleLink, RunnerLink
from judge.problems.loader import load_problem
from judge.submission import judge_source

spent: dict[tuple[str, str], float] = defaultdict(float)
state = {"case": None}


def clocked(owner, name: str, label) -> None:
    inner = getattr(owner, name)

    @functools.wraps(inner)
    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            if state["case"] is not None:
                spent[(state["case"], label(*args, **kwargs))] += time.perf_counter() - began
    setattr(owner, name, wrapper)


def kind_name(kind) -> str:
    return (kind if isinstance(kind, tuple) else (kind,))[0].__name__


def main() -> None:
    problem, source = load_problem(sys.argv[1]), Path(sys.argv[2]).read_text()
    judge = lambda: judge_source(problem, source, backend="gpu", timing=True, seed=1, standby=False)
    began = time.perf_counter()
    judge()
    console = Console()
    console.print(f"first judge: {time.perf_counter() - began:.2f} s")
    clocked(OracleLink, "expect", lambda self, kind, *a, **k: f"oracle → {kind_name(kind)}")
    clocked(RunnerLink, "expect", lambda self, kinds, *a, **k: f"runner → {kind_name(kinds)}")
    clocked(timing, "lay_out", lambda *a, **k: "lay out buffers")
    clocked(timing, "copy_outputs", lambda *a, **k: "copy outputs to the oracle")
    measure, time_case = timing.measure, timing._time_case

    def measure_wrapped(*args, **kwargs):
        state["case"] = "(before the cases)"
        try:
            return measure(*args, **kwargs)
        finally:
            state["case"] = None

    def time_case_wrapped(run, oracle, fd, case, *rest):
        state["case"] = case.name
        began = time.perf_counter()
        try:
            return time_case(run, oracle, fd, case, *rest)
        finally:
            spent[(case.name, "whole case")] += time.perf_counter() - began
            state["case"] = "(between cases)"
    timing.measure, timing._time_case = measure_wrapped, time_case_wrapped
    began = time.perf_counter()
    result = judge()
    console.print(f"second judge: {time.perf_counter() - began:.2f} s, {result.verdict.value}; "
                  + " · ".join(f"{p.name} {p.seconds:.2f}" for p in result.phases))
    if result.verdict.value != "AC":
        console.print(result.message, *result.notes)
    table = Table("case", "step", "s", title="the timing phase, step by step")
    for (case, step), seconds in spent.items():
        table.add_row(case, step, f"{seconds:.3f}")
    console.print(table)
    for c in result.timing.per_case if result.timing else []:
        console.print(f"{c.size} median {c.median_us:.1f} µs × {c.samples} samples, baseline {c.baseline_us}")


if __name__ == "__main__":
    main()
