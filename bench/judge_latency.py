"""Wall time from command to verdict, as a learner sees it: `python judge.py PROBLEM FILE`.

Cold = an empty build cache; cached = the same command again, in a runner and oracle that a standby
host started before the command (the default), and with `--no-standby` (children started by the command).
`PAUSE_S` seconds pass before each cached command (default 0: back to back, when a command may
find the standby host's next pair still starting; a learner reading a verdict pauses longer).
Printed figures, not pass/fail.

Each command runs on the GPU backend (when this machine has a GPU) and on the CPU backend, which
judges correctness only and so has no timed modes; `BACKENDS=cpu` (or `gpu`) keeps one, `PROBLEMS=problem83`
one solution and `MODES` (separated by ';') some modes.
`TREES=/path/a:/path/b` times the same commands in other checkouts too (each with its cache),
alternating between them command by command so that both see the same load; `OWN=0` leaves out the
`--no-standby` runs.
"""
from __future__ import annotations

import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.util import cache_from_source
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.cache_paths import standby_root
from sandbox import standby

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = {
    "relu (1)": ("problem1", "problems/001-relu/solutions/accepted/vectorized.cu"),
    "multi-block scan (83)": ("problem83", "problems/083-multi-block-scan/solutions/accepted/three_pass_scan.cu"),
}
MODES = {"sample tests, no timing": ["--tests", "sample", "--no-timing"],
         "all tests, no timing": ["--no-timing"],
         "sample tests + timing": ["--tests", "sample"],
         "all tests + timing": []}
REPEATS = int(os.environ.get("REPEATS", "3"))
PAUSE_S = float(os.environ.get("PAUSE_S", "0"))
CHOSEN_MODES = os.environ.get("MODES")   # e.g. "sample tests, no timing;sample tests + timing"; default: all
CHOSEN_PROBLEMS = os.environ.get("PROBLEMS")   # e.g. "problem83"; default: both
TREES = [Path(p).resolve() for p in os.environ.get("TREES", str(ROOT)).split(":")]
OWN = os.environ.get("OWN", "1") != "0"
BACKENDS = os.environ.get("BACKENDS", "gpu,cpu" if shutil.which("nvidia-smi") else "cpu").split(",")


def run(tree: Path, problem: str, solution: str, extra: list[str], cache: str, pause: float = 0.0) -> tuple[float, int, str]:
    """(wall seconds, exit status, where the judge's time went by its Result's phases)."""
    time.sleep(pause)
    env = {**os.environ, "CUDAJUDGE_CACHE_DIR": cache}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "judge.py", problem, solution, "--json", "--all", *extra], cwd=tree, env=env,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        phases = " ".join(f"{p['name']} {p['seconds']:.2f}" for p in json.loads(out.stdout).get("phases", [])
                          if p["seconds"] >= 0.005)
    except ValueError:
        phases = (out.stderr.strip().splitlines() or ["?"])[-1][:80]
    return seconds, out.returncode, phases


def stop_standby_hosts(cache: str) -> None:
    """Ends the standby hosts that commands run with this CUDAJUDGE_CACHE_DIR started."""
    for host in standby_root(Path(cache)).glob("*"):
        standby.stop_host(host)


def main() -> None:
    console = Console()
    if not all(Path(cache_from_source(str(tree / "cudajudge" / "cli.py"))).exists() for tree in TREES):
        console.print("note: the judge's modules have no compiled bytecode (PYTHONDONTWRITEBYTECODE?): every "
                      "command below compiles them again, which an installed judge does not")
    table = Table("checkout", "backend", "solution", "mode", "cold", "cached p50", "cached min", "cached p50, no standby", "exit",
                  "phases of the last cached run (s)", title="judge latency (wall, s)")
    for backend, (label, (problem, solution)), (mode, mode_args) in itertools.product(BACKENDS, SOLUTIONS.items(),
                                                                                      MODES.items()):
        timed = "--no-timing" not in mode_args
        if (CHOSEN_MODES and mode not in CHOSEN_MODES.split(";") or CHOSEN_PROBLEMS and problem not in CHOSEN_PROBLEMS.split(",")
                or backend == "cpu" and timed):
            continue
        extra = [*mode_args, "--backend", backend]
        with tempfile.TemporaryDirectory() as caches:
            cache = {tree: str(Path(caches) / str(i)) for i, tree in enumerate(TREES)}
            cold = {tree: run(tree, problem, solution, extra, cache[tree]) for tree in TREES}
            for tree in TREES:
                run(tree, problem, solution, extra, cache[tree])   # the standby host started by the cold run is up
            warm: dict[Path, list[float]] = {tree: [] for tree in TREES}
            phases: dict[Path, str] = {tree: "-" for tree in TREES}
            own: dict[Path, list[float]] = {tree: [] for tree in TREES}
            for _ in range(REPEATS):
                for tree in TREES:
                    seconds, _, phases[tree] = run(tree, problem, solution, extra, cache[tree], PAUSE_S)
                    warm[tree].append(seconds)
            for _ in range(REPEATS if OWN else 0):
                for tree in TREES:
                    own[tree].append(run(tree, problem, solution, [*extra, "--no-standby"], cache[tree], PAUSE_S)[0])
            for tree in TREES:   # the standby hosts these commands started, before their folders go
                stop_standby_hosts(cache[tree])
        for tree in TREES:
            row = (tree.name, backend, label, mode, f"{cold[tree][0]:.2f}", f"{statistics.median(warm[tree]):.2f}",
                   f"{min(warm[tree]):.2f}", f"{statistics.median(own[tree]):.2f}" if own[tree] else "-",
                   str(cold[tree][1]), phases[tree])
            console.print(" | ".join(row))   # as it goes: a run cut short still shows what it measured
            table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
