"""Where one whole judge's wall time goes, test by test: `python bench/test_times.py PROBLEM FILE [--timing]`.

Judges FILE once to warm the build cache and the children, then again while timing each test from its
TestStarted to its TestDone event, and prints the slowest tests, the time by test group, the Result's
phases and the wall time before the first test and after the last. `BACKEND=cpu` (default: the GPU when
there is one); `PROFILE=N` also runs the second judge under cProfile and prints the judge side's N
costliest functions by own time. Printed figures, not pass/fail.
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.problems.loader import load_problem
from judge.protocol import TestDone, TestStarted
from judge.submission import judge_source

SHOWN = 12


class TestClock:
    """Wall seconds from each test's start event to its end event, and when the first test started and
    the last one ended."""

    def __init__(self):
        self.started: dict[str, float] = {}
        self.seconds: dict[str, float] = {}
        self.first_start = self.last_end = None

    def __call__(self, event) -> None:
        now = time.perf_counter()
        if isinstance(event, TestStarted):
            self.started[event.name] = now
            self.first_start = self.first_start or now
        elif isinstance(event, TestDone) and event.result.name in self.started:
            self.seconds[event.result.name] = now - self.started[event.result.name]
            self.last_end = now


def main() -> None:
    problem, path = load_problem(sys.argv[1]), Path(sys.argv[2])
    timing, backend = "--timing" in sys.argv[3:], os.environ.get("BACKEND", "auto")
    source, console = path.read_text(), Console()

    def judge(clock=lambda e: None):
        return judge_source(problem, source, backend=backend, timing=timing, seed=1, on_event=clock, standby=False)

    began = time.perf_counter()
    judge()
    console.print(f"first judge (build, children): {time.perf_counter() - began:.2f} s")
    clock, profile = TestClock(), cProfile.Profile() if os.environ.get("PROFILE") else None
    began = time.perf_counter()
    if profile:
        profile.enable()
    result = judge(clock)
    if profile:
        profile.disable()
    returned = time.perf_counter()
    wall = returned - began
    console.print(f"second judge: {wall:.2f} s, {result.verdict.value}, tests {sum(clock.seconds.values()):.2f} s; "
                  + " · ".join(f"{p.name} {p.seconds:.2f}" for p in result.phases))
    if clock.first_start is not None:
        console.print(f"before the first test {clock.first_start - began:.2f} s, the tests {clock.last_end - clock.first_start:.2f} s, "
                      f"after the last test (timing, ending the children, removing files) {returned - clock.last_end:.2f} s")
    slowest = Table("test", "s", title=f"the {SHOWN} slowest tests")
    for name, seconds in sorted(clock.seconds.items(), key=lambda kv: -kv[1])[:SHOWN]:
        slowest.add_row(name, f"{seconds:.3f}")
    groups: dict[str, list[float]] = defaultdict(list)
    for name, seconds in clock.seconds.items():
        groups[name.split("/")[0]].append(seconds)
    by_group = Table("group", "tests", "s", "s per test", title="by test group")
    for group, seconds in groups.items():
        by_group.add_row(group, str(len(seconds)), f"{sum(seconds):.3f}", f"{sum(seconds) / len(seconds):.4f}")
    console.print(slowest, by_group)
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(int(os.environ["PROFILE"]))


if __name__ == "__main__":
    main()
