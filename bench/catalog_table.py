"""Write docs/catalog.md: every problem with its pattern, tests and baseline, and, given the JSON
Results of its optimized solution judged on a GPU (`--results DIR` of `cudajudge judge --json`
outputs named NNN-SOLUTION.json, e.g. 001-vectorized.json), the solution, its median time, % of
speed of light and ratio to the baseline.

`--measure` first judges, on this machine's GPU and one at a time, each solution that
bench/catalog_solutions.txt names whose result file is missing, and writes it to `--results`."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from judge.problems.loader import parse_problem, problem_folders
from judge.problems.model import Problem
from judge.problems.plan import test_cases

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = Path(__file__).with_name("catalog_solutions.txt")
PATTERN_TAGS = ("map", "reduce", "scan", "histogram", "compaction", "transpose", "stencil", "gather-scatter",
                "sort", "top-k", "execution-config", "moe", "matmul", "warp")


def timings(p: Problem, results: Path | None) -> list[tuple[str, dict]]:
    """(timed solution, Timing as JSON) for each of the problem's results that has timing."""
    found = []
    for result_file in sorted(results.glob(f"{p.id:03d}-*.json")) if results else []:
        t = json.loads(result_file.read_text()).get("timing")
        if t:
            found.append((result_file.stem.split("-", 1)[1], t))
    return found


def row(p: Problem, results: Path | None) -> str:
    cases = test_cases(p)
    pattern = next((t for t in p.tags if t in PATTERN_TAGS), p.tags[0] if p.tags else "-")
    timing = "- | not measured | - | -"
    for solution, t in timings(p, results):
        ratio = f"{t['ratio_to_baseline']:.2f}×" if t.get("ratio_to_baseline") else "-"
        sol = f"{t['sol_pct']:.0f}%" if t.get("sol_pct") is not None else "-"
        timing = f"`{solution}` | {t['median_us']:.1f} µs | {sol} | {ratio}"
    gpu_only = sum(c.gpu_only for c in cases)
    return (f"| {p.id} | [{p.title.en}](../{p.folder.relative_to(ROOT)}/statement.en.md) | {pattern} | {p.difficulty} | "
            f"{len(cases)} ({gpu_only} GPU-only) | {p.tolerance.policy} | {p.benchmark.baseline or '-'} | {timing} |")


JUDGE_TIMEOUT_S = 120          # one timed judge; past it the next problem goes on
MEMORY_BOUND_SOL_PCT, MEMORY_BOUND_RATIO = 70.0, 0.8   # the catalog's target: either one
# FLOP per byte moved above which a case is bound by arithmetic, not memory (an H200 does about
# 67 TFLOP/s of FP32 against 4.8 TB/s: about 14).
COMPUTE_BOUND_INTENSITY = 20.0


def case_rows(p: Problem, results: Path) -> list[str]:
    """Every timed benchmark case of the problem, with whether it meets the memory-bound target."""
    rows = []
    for _, t in timings(p, results):
        for c in t.get("per_case", []):
            ratio = c.get("ratio_to_baseline")
            meets = c["sol_pct"] >= MEMORY_BOUND_SOL_PCT or (ratio is not None and ratio >= MEMORY_BOUND_RATIO)
            target = "yes" if meets else "**no**"
            if (c.get("gflops") or 0) / c["gbps"] > COMPUTE_BOUND_INTENSITY:
                target = f"compute-bound: {c['gflops'] / 1e3:.1f} TFLOP/s"
            size = ", ".join(f"{k}={v}" for k, v in c["size"].items())
            rows.append(f"| {p.id} | {size} | {c['distribution']} | {c['median_us']:.1f} µs | {c['iqr_us']:.1f} µs | "
                        f"{c['samples']} | {c['gbps']:.0f} | {c['sol_pct']:.0f}% | "
                        f"{f'{ratio:.2f}×' if ratio is not None else '-'} | {target} |")
    return rows


def measure(results: Path) -> None:
    """Time the listed solutions that have no result yet: sample tests for correctness, then every benchmark case."""
    results.mkdir(parents=True, exist_ok=True)
    listed = [line.strip() for line in SOLUTIONS.read_text().splitlines() if line.strip() and not line.startswith("#")]
    for solution in map(Path, listed):
        problem = parse_problem(ROOT / "problems" / solution.parts[0])
        target = results / f"{problem.id:03d}-{solution.stem}.json"
        if target.exists():
            continue
        print(f"timing {solution} …", flush=True)
        started = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, str(ROOT / "judge.py"), str(problem.id), str(ROOT / "problems" / solution),
                                   "--backend", "gpu", "--tests", "sample", "--json"], capture_output=True, text=True,
                                  cwd=ROOT, timeout=JUDGE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            print(f"  no verdict in {JUDGE_TIMEOUT_S} s: skipped", flush=True)
            continue
        print(f"  {time.perf_counter() - started:.1f} s, exit {done.returncode}", flush=True)
        if done.returncode == 0:
            target.write_text(done.stdout, encoding="utf-8")
        elif done.returncode == 2:   # the judge could not start (no GPU, bad arguments): the rest would fail alike
            raise SystemExit(done.stderr.strip())
        else:
            print(f"  not accepted or failed (exit {done.returncode}): {done.stdout[-300:]}{done.stderr[-300:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "catalog.md")
    parser.add_argument("--measure", action="store_true", help="time missing results on this machine's GPU first")
    args = parser.parse_args()
    if args.measure:
        if args.results is None:
            parser.error("--measure needs --results DIR")
        measure(args.results)
    lines = ["# The catalog", "", "Generated by `python bench/catalog_table.py`; do not edit by hand.", "",
             "| id | problem | pattern | difficulty | tests | tolerance | baseline | timed solution | H200 median | % of copy | vs baseline |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    problems = [parse_problem(folder) for folder in problem_folders()]
    rows = [row(p, args.results) for p in problems]
    lines += rows
    if args.results:
        lines += ["", f"Timings: the JSON Results in `{args.results.resolve().relative_to(ROOT)}/`, each from "
                  "`python judge.py ID FILE --tests sample --json` (all benchmark cases and the baseline are timed; "
                  "the headline is the first benchmark case). Rows without one were not timed on a GPU yet."]
        per_case = [r for p in problems for r in case_rows(p, args.results)]
        if per_case:
            lines += ["", "## Every timed benchmark case", "",
                      f"Target for memory-bound problems: ≥ {MEMORY_BOUND_SOL_PCT:.0f}% of the measured copy bandwidth "
                      f"or ≥ {MEMORY_BOUND_RATIO}× the baseline's speed. A case of more than "
                      f"{COMPUTE_BOUND_INTENSITY:.0f} FLOP per byte is compute-bound: its FLOP rate is shown instead. "
                      "`docs/performance.md` explains the cases below the bandwidth mark.", "",
                      "| id | size | distribution | median | IQR | samples | GB/s | % of copy | vs baseline | target met |",
                      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", *per_case]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(rows)} problems)")


if __name__ == "__main__":
    main()
