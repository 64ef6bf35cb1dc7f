"""Does the judge's median match a bare CUDA-event loop over the same solve()?

The bare loop loads the same built library in this process, calls solve() on one input set
with an L2 flush before each call, and times it with events: no rotation, no verification.
Also repeats the judge's own measurement to show its repeat-to-repeat spread, and prints the
fixed cost of a call timed alone, which a judge's batch of short calls pays once per batch.
"""
from __future__ import annotations

import ctypes
import os
import statistics
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from judge.build import build
from judge.problems.loader import load_problem
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[1]
CASES = [(1, "problems/001-relu/solutions/accepted/vectorized.cu"),
         (83, "problems/083-multi-block-scan/solutions/accepted/three_pass_scan.cu"),
         (83, "problems/083-multi-block-scan/solutions/accepted/decoupled_lookback.cu")]
JUDGE_REPEATS = int(os.environ.get("JUDGE_REPEATS", "3"))
BARE_CALLS = 200
ONLY_PROBLEMS = {int(p) for p in os.environ.get("PROBLEMS", "").split(",") if p}


def bare_median_us(problem, source: str, size: dict) -> float:
    import cupy as cp

    built = build(problem, source)
    lib = ctypes.CDLL(str(built.library))
    cubin = Path(built.cubin).read_bytes()
    arena = cp.cuda.alloc(problem.limits.arena_mb << 20)
    lib.cudajudge_init.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_ulonglong, ctypes.c_size_t, ctypes.c_void_p]
    assert lib.cudajudge_init(cubin, len(cubin), arena.ptr, arena.mem.size, 0) == 0
    scalars = problem.scalars_for(size)
    arrays = {p.name: cp.asarray(np.random.default_rng(0).integers(-16, 16, problem.element_count(p, scalars))
                                 .astype(p.np_dtype)) for p in problem.params if p.is_pointer}
    from judge.backends.base import solve_argtypes
    lib.solve.argtypes = solve_argtypes(problem)
    args = [arrays[p.name].data.ptr if p.is_pointer else scalars[p.name] for p in problem.params]
    l2 = cp.cuda.Device().attributes["L2CacheSize"]
    flush = cp.empty(2 * l2, cp.uint8)
    for _ in range(5):
        lib.solve(*args)
    times = []
    for i in range(BARE_CALLS):
        flush.fill(i & 0xFF)
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        lib.solve(*args)
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)
    return statistics.median(times)


def fixed_call_cost_us() -> float:
    """What the bare loop pays per call besides the kernel's work, and a batch of calls pays once:
    an event pair around one empty kernel, after an L2 flush (median of BARE_CALLS)."""
    import cupy as cp

    nothing = cp.RawKernel('extern "C" __global__ void nothing() {}', "nothing")
    flush = cp.empty(2 * cp.cuda.Device().attributes["L2CacheSize"], cp.uint8)
    times = []
    for i in range(BARE_CALLS + 5):
        flush.fill(i & 0xFF)
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        nothing((1,), (1,), ())
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)
    return statistics.median(times[5:])


def main() -> None:
    console = Console()
    console.print(f"fixed cost of a call alone (event pair, one empty kernel): {fixed_call_cost_us():.2f} µs")
    table = Table("problem", "solution", "size", "judge medians (µs)", "spread", "bare loop (µs)", "judge / bare",
                  title="timing fidelity")
    for pid, rel in CASES:
        if ONLY_PROBLEMS and pid not in ONLY_PROBLEMS:
            continue
        problem = load_problem(pid)
        source = (ROOT / rel).read_text()
        runs = [judge_source(problem, source, backend="gpu", timing=True, patterns=["sample"], seed=s)
                for s in range(JUDGE_REPEATS)]
        for i, case in enumerate(runs[0].timing.per_case):
            medians = [r.timing.per_case[i].median_us for r in runs]
            spread = (max(medians) - min(medians)) / statistics.median(medians)
            bare = bare_median_us(problem, source, case.size)
            row = (str(pid), Path(rel).name, ",".join(f"{k}={v}" for k, v in case.size.items()),
                   " ".join(f"{m:.1f}" for m in medians), f"{100 * spread:.2f}%", f"{bare:.1f}",
                   f"{statistics.median(medians) / bare:.3f}")
            console.print(" | ".join(row))   # as it goes: a run cut short still shows what it measured
            table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
