"""Build times of every catalog solution and starter: NVRTC and host, cold and cached.

    python bench/build_times.py [--arch sm_90] [--keep-pch]

Cold: an empty build cache. Without --keep-pch the precompiled-header store starts empty too,
so the first file using a heavy header set pays for making its PCH; with --keep-pch the store
from earlier runs (in a fixed folder under the system temp directory) is reused, as it is on a
judge that has run before. Cached: the same build again, served from the cache.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.compilation import build  # noqa: E402
from judge.compilation.cache import BuildCache  # noqa: E402
from judge.problems.loader import parse_problem, problem_folders  # noqa: E402

COLD_TARGET_S = 1.0
CACHED_TARGET_S = 0.05


def _sources() -> list[tuple[Path, Path]]:
    found = []
    for folder in problem_folders():
        for source in [folder / "starter.cu", *sorted((folder / "solutions").rglob("*.cu"))]:
            if source.exists():
                found.append((folder, source))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--keep-pch", action="store_true", help="reuse the PCH store of earlier runs")
    args = parser.parse_args()
    console = Console(width=max(120, shutil.get_terminal_size().columns))

    scratch = Path(tempfile.mkdtemp(prefix="cudajudge-bench-"))
    pch = Path(tempfile.gettempdir()) / "cudajudge-bench-pch" if args.keep_pch else scratch / "pch"
    os.environ["CUDAJUDGE_PCH_DIR"] = str(pch)
    cache = BuildCache(scratch / "builds")

    table = Table(title=f"build times ({args.arch}; cold = empty build cache, "
                        f"{'PCH store kept' if args.keep_pch else 'empty PCH store'})")
    for column in ("problem", "file", "result", "NVRTC s", "host s", "cold s", "PCH", "cached ms"):
        table.add_column(column, justify="right" if column.endswith(("s", "ms")) else "left")
    colds, cacheds, failures = [], [], 0
    problems = {}
    for folder, source in _sources():
        problem = problems.setdefault(folder, parse_problem(folder))
        text = source.read_bytes()
        started = time.perf_counter()
        cold = build(problem, text, arch=args.arch, filename=source.name, cache=cache)
        cold_s = time.perf_counter() - started
        started = time.perf_counter()
        again = build(problem, text, arch=args.arch, filename=source.name, cache=cache)
        cached_s = time.perf_counter() - started
        assert again.cached
        colds.append(cold_s)
        cacheds.append(cached_s)
        failures += not cold.ok
        table.add_row(folder.name.split("-")[0], str(source.relative_to(folder)), "ok" if cold.ok else "CE",
                      f"{cold.nvrtc_s:.3f}" if cold.nvrtc_s is not None else "-",
                      f"{cold.host_s:.3f}" if cold.host_s is not None else "-",
                      f"[{'red' if cold_s > COLD_TARGET_S else 'green'}]{cold_s:.3f}",
                      cold.pch or "-", f"[{'red' if cached_s > CACHED_TARGET_S else 'green'}]{cached_s * 1000:.1f}")
    console.print(table)
    if not colds:
        console.print("no sources found")
        return 1
    console.print(f"{len(colds)} files, {failures} compile errors")
    console.print(f"cold:   median {statistics.median(colds):.3f} s, mean {statistics.mean(colds):.3f} s, "
                  f"max {max(colds):.3f} s; {sum(c <= COLD_TARGET_S for c in colds)}/{len(colds)} within {COLD_TARGET_S} s")
    console.print(f"cached: median {statistics.median(cacheds) * 1000:.1f} ms, max {max(cacheds) * 1000:.1f} ms; "
                  f"{sum(c <= CACHED_TARGET_S for c in cacheds)}/{len(cacheds)} within {CACHED_TARGET_S * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
