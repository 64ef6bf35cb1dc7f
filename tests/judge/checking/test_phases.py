"""A Result says where the judge's wall time went: build, starting the children, the waits for test data,
for solve() and for the checks, and the judge side's own work; the CLI prints it as one line."""
import re
import subprocess
import sys
import time
from pathlib import Path

from judge.checking.phases import ORDER
from judge.problems.loader import load_problem
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[3]
RELU = "problems/001-relu/solutions/accepted/naive.cu"


def test_the_phases_add_up_to_the_judge_s_wall_time():
    started = time.monotonic()
    result = judge_source(load_problem(1), (ROOT / RELU).read_text(), backend="cpu", timing=False, seed=4,
                          patterns=["sample", "edge"])
    wall = time.monotonic() - started
    assert result.verdict == "AC"
    names = [p.name for p in result.phases]
    assert names == [n for n in ORDER if n in names]   # in the fixed order, each once
    assert {"build", "start", "solve() calls", "judge side"} <= set(names)
    total = sum(p.seconds for p in result.phases)
    assert 0.5 * wall <= total <= wall + 0.01
    assert all(p.seconds > 0 for p in result.phases)


def test_a_compile_error_reports_the_build_phase_only_with_the_start():
    result = judge_source(load_problem(1), "this is not CUDA", backend="cpu", timing=False, seed=4)
    assert result.verdict == "CE"
    assert "build" in [p.name for p in result.phases]
    assert "solve() calls" not in [p.name for p in result.phases]


def test_the_cli_prints_where_the_time_went_after_the_tests():
    out = subprocess.run([sys.executable, "judge.py", "1", RELU, "--backend", "cpu", "--tests", "sample",
                          "--no-standby"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    # the line, however the console wrapped it (a wrap may also end a line at "(cached)")
    line = re.search(r"time: .*?judge side [0-9.]+ s\)", " ".join(out.stdout.split()))[0]
    # a phase under 5 ms (two tiny tests' solve() calls on a fast machine) is left out of the line
    parts = [re.match(r"(.+?) [0-9.]+ s", part)[1] for part in line.split("(", 1)[1].rsplit(")", 1)[0].split(" · ")]
    assert parts[0] == "build" and parts[-1] == "judge side" and set(parts) <= set(ORDER), line
