"""Does the judge's median match a bare CUDA-event loop, for the solution and for the baseline?

Problems 1, 3, 6 and 83, every benchmark size. Each subject (the built solution's solve(), or the
problem's baseline from reference.py called on CuPy arrays as the oracle calls it) is timed in this
process without the judge: events, an L2 flush before each sample (a memset of 2× L2, as the judge
flushes), the stream held by a one-thread kernel until the host has enqueued the sample's calls (as
nvbench does, so that no call waits for the host to issue it), after the judge's warm-up (at least 3
calls and 25 ms: an idle GPU's clocks take that long to come up), no reset and no verification:
- one call per event pair (200 samples): what a call costs alone, with the event pair's fixed cost;
- as the judge timed it: a batch of as many calls per event pair as the judge's Result says it made
  (`calls_per_sample`), on distinct copies of the input; with ROTATE=1 the samples go round as many
  copies as the judge made input sets, as the judge does, instead of calling the same copies; with
  RESET=1 each sample first writes the outputs of its calls, before the flush, as the judge resets them.
"judge / bare" compares the judge with the second. With NCU=1 the solution's single-call loop also
runs under Nsight Compute (caches and clocks left alone, a one-thread marker kernel before each
call) and sums its kernels' durations between markers: the kernels' own time.
The judge and the bare loops run JUDGE_REPEATS times, medians compared, with their spreads.
Printed figures, not pass/fail. `python bench/timing_fidelity.py --bare PROBLEM SOLUTION SIZE_JSON` is
the solution's loop alone, for ncu to profile.
"""
from __future__ import annotations

import csv
import ctypes
import functools
import io
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from judge.backends.base import solve_entry
from judge.compilation import build
from judge.problems.expressions import evaluate
from judge.problems.loader import load_problem, load_reference
from judge.submission import judge_source
from judge.timing.stats import WARMUP_CALLS, WARMUP_S, input_set_count

ROOT = Path(__file__).resolve().parents[1]

CASES = [(1, "problems/001-relu/solutions/accepted/vectorized.cu"),
         (3, "problems/003-sum-reduction/solutions/accepted/warp_shuffle.cu"),
         (6, "problems/006-dot-product/solutions/accepted/grid_stride_shuffle.cu"),
         (83, "problems/083-multi-block-scan/solutions/accepted/three_pass_scan.cu"),
         (83, "problems/083-multi-block-scan/solutions/accepted/decoupled_lookback.cu")]
JUDGE_REPEATS = int(os.environ.get("JUDGE_REPEATS", "3"))
BARE_SAMPLES = 200
HOLD_CYCLES = 200_000_000      # about 0.1 s: a solve() that waits for the device ends the hold
HOLD = r"""extern "C" __global__ void hold(volatile const long long* released, long long sample, long long cycles) {
    const long long began = clock64();
    while (*released < sample && clock64() - began < cycles) {}
}"""
NCU_CALLS = 40
ONLY_PROBLEMS = {int(p) for p in os.environ.get("PROBLEMS", "").split(",") if p}
USE_NCU = os.environ.get("NCU") == "1"
ROTATE = os.environ.get("ROTATE") == "1"
RESET = os.environ.get("RESET") == "1"


class BareLoop:
    """One subject on `copies` distinct copies of one input, without the judge: the built solution's
    solve(), or (`baseline`) the problem's baseline from reference.py, called as the oracle calls it."""

    def __init__(self, problem, source: str, size: dict, copies: int, baseline: bool = False):
        import cupy as cp

        self.cp = cp
        scalars = problem.scalars_for(size)
        host = {p.name: np.random.default_rng(0).integers(-16, 16, problem.element_count(p, scalars)).astype(p.np_dtype)
                for p in problem.params if p.is_pointer}
        self.sets = [{name: cp.asarray(values) for name, values in host.items()} for _ in range(copies)]
        self.outputs = [[s[p.name] for p in problem.params if p.is_output] for s in self.sets]
        if baseline:
            reference = load_reference(problem)
            self.calls = [functools.partial(reference.baseline, **s, **scalars) for s in self.sets]
        else:
            built = build(problem, source)
            self.lib = lib = ctypes.CDLL(str(built.library))
            cubin = Path(built.cubin).read_bytes()
            self.arena = cp.cuda.alloc(problem.limits.arena_mb << 20)
            lib.cudajudge_init.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_ulonglong, ctypes.c_size_t,
                                           ctypes.c_void_p]
            assert lib.cudajudge_init(cubin, len(cubin), self.arena.ptr, self.arena.mem.size, 0) == 0
            solve = solve_entry(lib, problem)
            self.calls = [functools.partial(solve, *[s[p.name].data.ptr if p.is_pointer else scalars[p.name]
                                                     for p in problem.params]) for s in self.sets]
        self.flush = cp.empty(2 * cp.cuda.Device().attributes["L2CacheSize"], cp.uint8)
        self.hold = cp.RawKernel(HOLD, "hold")
        self.released = cp.zeros(1, cp.int64)              # the last sample let go, written from another stream
        self.release_stream = cp.cuda.Stream(non_blocking=True)
        self.held_samples = 0

    def per_call_us(self, batch: int, samples: int, marked: bool = False, held: bool = False) -> list[float]:
        """`marked`: a marker kernel after each flush, where ncu splits its kernel list into calls.
        `held`: the stream held from before the start event until the batch is enqueued."""
        cp = self.cp
        began = time.perf_counter()   # warmed up as the judge warms up: the clocks are up before the samples
        for i in itertools.count():
            self.calls[i % len(self.calls)]()
            cp.cuda.get_current_stream().synchronize()
            if i + 1 >= max(WARMUP_CALLS, len(self.calls)) and time.perf_counter() - began >= WARMUP_S:
                break
        start, end = cp.cuda.Event(), cp.cuda.Event()
        marker = cp.empty(1, cp.uint8)
        times = []
        for i in range(samples):
            first = i * batch % len(self.calls)
            if RESET:   # the batch's outputs written before the flush, as the judge resets them
                for k in range(first, first + batch):
                    for output in self.outputs[k % len(self.calls)]:
                        output.fill(0)
            self.flush.data.memset_async(i & 0xFF, self.flush.nbytes)
            if marked:
                marker.fill(i & 0xFF)
            if held:
                self.held_samples += 1
                self.hold((1,), (1,), (self.released, np.int64(self.held_samples), np.int64(HOLD_CYCLES)))
            start.record()
            for k in range(first, first + batch):
                self.calls[k % len(self.calls)]()
            end.record()
            if held:
                with self.release_stream:
                    self.released.fill(self.held_samples)
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e3 / batch)
        return times


def ncu_median_us(pid: int, rel: str, size: dict) -> float | None:
    """Median over calls of the summed durations of the solution's kernels in one call, by ncu."""
    ncu = shutil.which("ncu")
    if ncu is None:
        return None
    out = subprocess.run([ncu, "--csv", "--print-units", "base", "--metrics", "gpu__time_duration.sum",
                          "--cache-control", "none", "--clock-control", "none",
                          sys.executable, __file__, "--bare", str(pid), rel, json.dumps(size)],
                         capture_output=True, text=True, cwd=ROOT)
    rows = [r for r in csv.DictReader(io.StringIO(out.stdout[out.stdout.find('"ID"'):]))
            if r.get("Metric Name") == "gpu__time_duration.sum"]
    if not rows:
        print(out.stdout[-2000:], out.stderr[-2000:])
        return None
    calls, current = [], None
    for row in rows:   # the marker (a CuPy kernel) comes before every call
        if row["Kernel Name"].startswith("cupy"):
            if current is not None:
                calls.append(current)
            current = 0.0
        elif current is not None:
            current += float(row["Metric Value"].replace(",", "")) / 1e3   # ncu groups thousands
    calls.append(current)
    return statistics.median(calls[len(calls) // 4:])   # the first calls warm up


def bare_us(problem, source: str, size: dict, batch: int, held: bool = False, baseline: bool = False,
            copies: int | None = None) -> list[float]:
    """The medians of JUDGE_REPEATS bare loops, each on its own `copies` (default `batch`) copies of the
    input, as the judge repeats."""
    return [statistics.median(BareLoop(problem, source, size, copies or batch, baseline)
                              .per_call_us(batch, BARE_SAMPLES, held=held)) for _ in range(JUDGE_REPEATS)]


def judge_sets(problem, size: dict, copy_gbps: float) -> int:
    """How many input sets the judge rotates a case's samples over (judge.checking.timing)."""
    return input_set_count(evaluate(problem.benchmark.bytes, problem.scalars_for(size)) / (copy_gbps * 1e9))


def spread(values: list[float]) -> float:
    return (max(values) - min(values)) / statistics.median(values)


def bare_only(pid: int, rel: str, size: dict) -> None:
    BareLoop(load_problem(pid), (ROOT / rel).read_text(), size, 1).per_call_us(1, NCU_CALLS, marked=True)


def subject_row(pid: int, rel: str, case, subject: str, medians: list[float], batches: list[int],
                copy_gbps: float) -> tuple:
    """One subject of one benchmark case: the judge's medians against bare loops timed as the judge
    timed that subject (held batches of the judge's calls per sample, one call per event pair where
    it made one)."""
    problem, source, baseline = load_problem(pid), (ROOT / rel).read_text(), subject == "baseline"
    judge = statistics.median(medians)
    alones = bare_us(problem, source, case.size, 1, held=True, baseline=baseline)
    batch = max(batches)
    copies = judge_sets(problem, case.size, copy_gbps) if ROTATE else batch
    bares = bare_us(problem, source, case.size, batch, held=True, baseline=baseline, copies=copies) \
        if batch > 1 or ROTATE else alones
    bare = statistics.median(bares)
    ncu = ncu_median_us(pid, rel, case.size) if USE_NCU and not baseline else None
    return (str(pid), subject if baseline else Path(rel).name, json.dumps(case.size),
            " ".join(f"{m:.2f}" for m in medians), f"{100 * spread(medians):.2f}%",
            f"{statistics.median(alones):.2f}", " ".join(f"{m:.2f}" for m in bares) + f" (×{batch} of {copies})",
            f"{100 * spread(bares):.2f}%", f"{ncu:.2f}" if ncu else "-", f"{judge / bare:.3f}",
            f"{judge / ncu:.3f}" if ncu else "-")


def main() -> None:
    console = Console()
    table = Table("problem", "subject", "size", "judge medians (µs)", "spread", "bare, alone (µs)",
                  "bare as judged: medians (µs)", "spread", "ncu (µs)", "judge / bare", "judge / ncu",
                  title="timing fidelity: the judge against bare loops, solutions and baselines")
    for pid, rel in CASES:
        if ONLY_PROBLEMS and pid not in ONLY_PROBLEMS:
            continue
        problem = load_problem(pid)
        source = (ROOT / rel).read_text()
        runs = [judge_source(problem, source, backend="gpu", timing=True, patterns=["sample"], seed=s)
                for s in range(JUDGE_REPEATS)]
        for i, case in enumerate(runs[0].timing.per_case):
            for subject in ("solution", "baseline"):
                field = "" if subject == "solution" else "baseline_"
                cases = [r.timing.per_case[i] for r in runs]
                medians = [getattr(c, "median_us" if subject == "solution" else "baseline_us") for c in cases]
                batches = [getattr(c, field + "calls_per_sample") or 1 for c in cases]
                if len(set(batches)) > 1:
                    console.print(f"note: the judge's runs made {batches} calls per sample; the bare loop makes {max(batches)}")
                row = subject_row(pid, rel, case, subject, medians, batches, runs[0].timing.copy_gbps)
                console.print(" | ".join(row))   # as it goes: a run cut short still shows what it measured
                table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--bare"]:
        bare_only(int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4]))
    else:
        main()
