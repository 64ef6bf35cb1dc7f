"""When a CLI judge stops: at the first failing test unless --all, at once on Ctrl-C; and what a
cached build reports."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[2]
NO_TAIL = "problems/001-relu/solutions/rejected/float4_no_tail.cu"


def _judge_json(*options: str) -> dict:
    out = subprocess.run([sys.executable, "judge.py", "1", NO_TAIL, "--backend", "cpu", "--tests", "sample,edge",
                          "--no-standby", "--seed", "7", "--json", *options], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr
    return json.loads(out.stdout)


def test_the_cli_stops_at_the_first_failing_test_and_lists_what_did_not_run():
    result = _judge_json()
    verdicts = [t["verdict"] for t in result["tests"]]
    first = next(i for i, v in enumerate(verdicts) if v != "AC")
    assert result["verdict"] == verdicts[first] == "WA"
    assert verdicts[first + 1:] and set(verdicts[first + 1:]) == {"NR"}
    failed = result["tests"][first]["name"]
    assert all(t["message"] == f"not run: the judge stopped at the first failing test, {failed}"
               for t in result["tests"][first + 1:])
    assert len(result["tests"]) == 50
    assert any(f"{50 - first - 1} of 50 tests not run" in note for note in result["notes"]), result["notes"]


def test_all_judges_every_test_with_the_same_verdict():
    stopped, every = _judge_json(), _judge_json("--all")
    assert every["verdict"] == stopped["verdict"] and every["message"] == stopped["message"]
    assert "NR" not in {t["verdict"] for t in every["tests"]}
    assert sum(t["verdict"] == "WA" for t in every["tests"]) > 1   # later failures show only with --all


def test_a_cached_build_reports_cached_with_its_own_seconds():
    source = (ROOT / "problems/001-relu/solutions/accepted/naive.cu").read_text() + f"\n// {time.time_ns()}\n"
    first, again = (judge_source(load_problem(1), source, backend="cpu", timing=False, patterns=["sample"])
                    for _ in range(2))
    assert not first.compile.cached and again.compile.cached
    assert again.compile.seconds < first.compile.seconds / 5, (first.compile.seconds, again.compile.seconds)


def _descendants(pid: int) -> set[int]:
    """Every process below `pid` (new sessions included), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


ENDLESS = """\
#include <cuda_runtime.h>
__global__ void spin(float* out, int n) { while (true) { if (n < 0) out[0] = 1.0f; } }
extern "C" void solve(const float* input, float* output, int N) { spin<<<1, 32>>>(output, N); cudaDeviceSynchronize(); }
"""


@pytest.mark.parametrize("after_s", [1.0, 8.0], ids=["while-building", "while-running"])
def test_ctrl_c_ends_the_judge_with_130_and_leaves_no_process(tmp_path, after_s):
    solution = tmp_path / "endless.cu"
    solution.write_text(ENDLESS + f"// {time.time_ns()}\n")   # a build of its own, not a cached one
    judge = subprocess.Popen([sys.executable, "judge.py", "1", str(solution), "--backend", "cpu", "--no-standby"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: set[int] = set()
    ends, latest = time.monotonic() + after_s, time.monotonic() + 60
    while time.monotonic() < ends or (not seen and time.monotonic() < latest):   # a loaded machine imports slowly
        seen |= _descendants(judge.pid)
        time.sleep(0.05)
    assert judge.poll() is None, judge.communicate()
    seen |= _descendants(judge.pid)
    os.kill(judge.pid, signal.SIGINT)
    out, err = judge.communicate(timeout=60)
    assert judge.returncode == 130, (out, err)
    assert "interrupted" in err
    time.sleep(0.5)
    alive = [pid for pid in seen if _running(pid)]
    assert not alive, [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in alive]
    assert seen, "the judge had started no process to end"


def test_quiet_prints_only_the_verdict_line():
    out = subprocess.run([sys.executable, "judge.py", "1", NO_TAIL, "--backend", "cpu", "--tests", "sample,edge",
                          "--no-standby", "--seed", "7", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("WA  WA on test edge/"), out.stdout
