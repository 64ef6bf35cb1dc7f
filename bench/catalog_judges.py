"""Every catalog problem's timed solution (bench/catalog_solutions.txt) judged with all its tests and no
timing, as a learner's command does it: `python judge.py PROBLEM FILE --backend cpu --no-timing`
(`BACKEND=gpu`: on the GPU, GPU-only tests included).

Cold = the solution's first judge, in a fresh cache (on the CPU backend the CPU runtime is built once,
before the table); warm = the same command again, `REPEATS` times (default 2), the best kept. Exit 0 is
AC. `cores` = the machine's busy CPU seconds during the best warm run over its wall seconds (from
/proc/stat, so on an otherwise idle machine): how much of the machine the judge kept busy. Printed
figures, not pass/fail; the target on the CPU backend is a warm judge in at most TARGET_S seconds on an
idle 2-core machine.

    python bench/catalog_judges.py            # PROBLEMS=1,83 for a few
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.compilation.cpu_runtime import prepare_runtime
from judge_latency import ROOT, run, stop_standby_hosts

TARGET_S = 3.0
BACKEND = os.environ.get("BACKEND", "cpu")
REPEATS = int(os.environ.get("REPEATS", "2"))
CHOSEN = {int(p) for p in os.environ.get("PROBLEMS", "").split(",") if p}
SOLUTIONS = [line.strip() for line in (Path(__file__).with_name("catalog_solutions.txt")).read_text().splitlines()
             if line.strip() and not line.startswith("#")]


def busy_cpu_seconds() -> float | None:
    """CPU seconds the whole machine has spent busy since boot (Linux), or None."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")   # less idle and iowait


def timed_run(*args) -> tuple[float, int, str, float | None]:
    """judge_latency.run's (seconds, exit, phases) and the cores kept busy meanwhile."""
    before = busy_cpu_seconds()
    seconds, status, phases = run(*args)
    after = busy_cpu_seconds()
    return seconds, status, phases, None if before is None or after is None else (after - before) / seconds


def main() -> None:
    console = Console()
    cache = tempfile.mkdtemp(prefix="cudajudge-cpu-catalog-")
    os.environ["CUDAJUDGE_CACHE_DIR"] = cache   # read by prepare_runtime here and by every command below
    if BACKEND == "cpu":
        console.print(f"CPU runtime ready in {prepare_runtime():.1f} s; {os.cpu_count()} cores")
    table = Table("problem", "solution", "cold", "warm (best)", "cores", "exit", f"≤ {TARGET_S:g} s", "phases of the best warm run (s)",
                  title=f"{BACKEND.upper()} backend, all its tests, wall seconds per command ({os.cpu_count()} cores)")
    began, within = time.perf_counter(), 0
    for solution in SOLUTIONS:
        pid = int(solution.split("-", 1)[0])
        if CHOSEN and pid not in CHOSEN:
            continue
        extra = ["--backend", BACKEND, "--no-timing"]
        cold = run(ROOT, f"problem{pid}", f"problems/{solution}", extra, cache)
        warm = min((timed_run(ROOT, f"problem{pid}", f"problems/{solution}", extra, cache) for _ in range(REPEATS)),
                   key=lambda r: r[0])
        within += warm[0] <= TARGET_S
        row = (str(pid), Path(solution).name, f"{cold[0]:.2f}", f"{warm[0]:.2f}", "-" if warm[3] is None else f"{warm[3]:.2f}", str(warm[1]),
               "yes" if warm[0] <= TARGET_S else "no", warm[2])
        console.print(" | ".join(row))   # as it goes: a run cut short still shows what it measured
        table.add_row(*row)
    console.print(table)
    console.print(f"{within} of {table.row_count} within {TARGET_S:g} s warm; {time.perf_counter() - began:.0f} s in all")
    stop_standby_hosts(cache)
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
