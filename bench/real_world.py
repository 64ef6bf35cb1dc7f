"""Judge the solutions in other judges' styles (tests/judge/real_world/p<N>_*.cu) beside the catalog's own
accepted solutions of the same problems, on one backend, and print one row each: verdict, tests,
and on the GPU the median time, the baseline's and their ratio over the timed cases.

    python bench/real_world.py --backend cpu
    python bench/real_world.py --backend gpu --tests sample --files cub,thrust --json results.json
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.problems.loader import load_problem
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[1]
REAL_WORLD = ROOT / "tests" / "judge" / "real_world"


def candidates(problems: list[int], words: list[str]) -> list[tuple[int, str, Path]]:
    """(problem, origin, file): the real-world files, then the catalog's accepted solutions, whose names
    hold one of `words` (all if none)."""
    found = []
    for number in problems:
        found += [(number, "real world", path) for path in sorted(REAL_WORLD.glob(f"p{number}_*.cu"))
                  if not words or any(word in path.name for word in words)]
        folder = load_problem(number).folder / "solutions" / "accepted"
        found += [(number, "catalog", path) for path in sorted(folder.glob("*.cu"))
                  if not words or any(word in path.name for word in words)]
    return found


def judge_one(number: int, path: Path, backend: str, tests: list[str] | None) -> dict:
    started = time.monotonic()
    result = judge_source(load_problem(number), path.read_text(), backend=backend, timing=backend == "gpu",
                          filename=path.name, seed=3, patterns=tests)
    row = dict(problem=number, file=path.name, backend=backend, verdict=result.verdict.value,
               tests=len(result.tests), passed=sum(t.verdict.value == "AC" for t in result.tests),
               message=result.message, seconds=round(time.monotonic() - started, 2))
    if result.timing:
        row.update(median_us=result.timing.median_us, baseline_us=result.timing.baseline_us,
                   ratio=result.timing.ratio_to_baseline,
                   cases=[dict(size=c.size, median_us=c.median_us, baseline_us=c.baseline_us)
                          for c in result.timing.per_case],
                   kernels=[(k.kernel, k.calls, k.total_us) for k in result.timing.per_kernel])
    return row


def _figure(row: dict, key: str, spec: str) -> str:
    return format(row[key], spec) if row.get(key) is not None else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--problems", default="3,9,17,18,19")
    parser.add_argument("--tests", help="only these tests (names, groups or globs, comma-separated); timing "
                                            "still measures every benchmark case")
    parser.add_argument("--files", default="", help="only files (real-world or catalog) whose names hold one of these words")
    parser.add_argument("--json", type=Path, help="also write every row, with per-case figures, here")
    args = parser.parse_args()
    rows = []
    console = Console()
    tests = args.tests.split(",") if args.tests else None
    words = [w for w in args.files.split(",") if w]
    for number, origin, path in candidates([int(p) for p in args.problems.split(",")], words):
        with console.status(f"judging {path.name} on the {args.backend} backend"):
            rows.append(dict(judge_one(number, path, args.backend, tests), origin=origin))
        if args.json:   # row by row, so that a run cut short keeps what it measured
            args.json.write_text(json.dumps(rows, indent=1))
    table = Table(title=f"Real-world styles beside the catalog's solutions ({args.backend} backend, seed 3)")
    for column in ("problem", "file", "origin", "verdict", "tests", "median µs", "baseline µs", "ratio", "judge s"):
        table.add_column(column)
    for r in rows:
        table.add_row(str(r["problem"]), r["file"], r["origin"], r["verdict"], f"{r['passed']}/{r['tests']}",
                      _figure(r, "median_us", ".1f"), _figure(r, "baseline_us", ".1f"), _figure(r, "ratio", ".2f"),
                      f"{r['seconds']:.1f}")
    console.print(table)


if __name__ == "__main__":
    main()
