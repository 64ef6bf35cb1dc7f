"""A Result says what was judged: the GPU-only tests the CPU backend leaves out are listed as not run,
the verdict line says on how many tests an AC stands, and the Result is marked partial."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from judge.problems.loader import load_problem
from judge.problems import plan
from judge.checking.verdict import GPU_ONLY_NOT_RUN
from judge import protocol
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[2]
RELU = "problems/001-relu/solutions/accepted/naive.cu"


def test_an_ac_on_the_cpu_backend_names_the_gpu_only_tests_it_did_not_run():
    problem = load_problem(1)
    result = judge_source(problem, (ROOT / RELU).read_text(), backend="cpu", timing=False, seed=2,
                          patterns=["sample", "large"])
    gpu_only = [c.name for c in plan.test_cases(problem, patterns=["large"])]
    assert gpu_only and all(c.gpu_only for c in plan.test_cases(problem, patterns=["large"]))
    assert result.verdict == "AC" and result.partial
    assert result.message == (f"2 of {2 + len(gpu_only)} tests passed ({len(gpu_only)} GPU-only tests not run on "
                              f"the CPU backend)")
    assert [t.name for t in result.tests if t.verdict == "NR"] == gpu_only
    assert all(t.message == GPU_ONLY_NOT_RUN for t in result.tests if t.verdict == "NR")
    assert [t.verdict for t in result.tests[:2]] == ["AC", "AC"]


def test_a_whole_cpu_judge_without_gpu_only_tests_is_not_partial():
    result = judge_source(load_problem(1), (ROOT / RELU).read_text(), backend="cpu", timing=False, seed=2,
                          patterns=["sample", "edge"])
    assert result.verdict == "AC" and not result.partial and result.message.startswith("all ")


def test_tests_that_are_all_gpu_only_are_a_usage_error_that_says_why_and_how():
    out = subprocess.run([sys.executable, "judge.py", "1", RELU, "--backend", "cpu", "--tests", "large", "--no-standby"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, out.stdout + out.stderr
    said = " ".join(out.stderr.split())
    assert "are GPU-only" in said and "--include-gpu-only" in said


def test_a_negative_seed_is_a_usage_error_not_an_internal_one():
    out = subprocess.run([sys.executable, "judge.py", "1", RELU, "--backend", "cpu", "--seed", "-5", "--no-standby"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "--seed" in out.stderr, out.stdout + out.stderr
    assert "IE" not in out.stdout


TAIL_BUG = """
__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) out[i] = fmaxf(in[i], 0.0f);
}
extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
}
"""


def test_failures_alike_up_to_their_numbers_share_one_row_that_says_on_how_many_tests(tmp_path):
    source = tmp_path / "tail.cu"
    source.write_text(TAIL_BUG)
    out = subprocess.run([sys.executable, "judge.py", "1", str(source), "--backend", "cpu", "--all", "--tests",
                          "sample,edge", "--no-standby", "--seed", "4", "--no-shrink"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    planned = len(plan.test_cases(load_problem(1), patterns=["sample", "edge"]))
    text = " ".join(re.sub("[│┃]", " ", out.stdout).split())   # the table's cells, read across its wrapped lines
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"{planned} tests" in text and f"(same, with other values, on {planned - 1} more tests)" in text, out.stdout
    assert text.count("never written") == 2, out.stdout   # the table's one row and the verdict line


CAPPED_GRID = """
__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}
extern "C" void solve(const float* input, float* output, int N) {
    int blocks = (N + 255) / 256;
    if (blocks > 300) blocks = 300;   // the elements past 300 * 256 = 76800 are never written
    relu<<<blocks, 256>>>(input, output, N);
}
"""


def test_a_failure_at_a_large_size_is_shrunk_to_the_smallest_size_and_simplest_input_that_fail(tmp_path):
    result = judge_source(load_problem(1), CAPPED_GRID, backend="cpu", timing=False, seed=3, fail_fast=True, shrink=True)
    first = next(t for t in result.tests if t.verdict == "WA")
    assert first.size["N"] > 76801
    smaller = result.smaller_failure
    assert smaller is not None and smaller.size == {"N": 76801} and smaller.verdict == "WA", smaller
    assert smaller.distribution == "zeros" and "`output`[76800]" in smaller.message   # the simplest input that fails
    assert result.verdict == "WA" and result.message.startswith(f"WA on test {first.name}")
    source = tmp_path / "capped.cu"
    source.write_text(CAPPED_GRID)
    shown = subprocess.run([sys.executable, "judge.py", "1", str(source), "--backend", "cpu", "--no-standby", "--seed",
                            "3"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "also fails at N = 76801 (zeros)" in shown.stdout, shown.stdout
    plain = subprocess.run([sys.executable, "judge.py", "1", str(source), "--backend", "cpu", "--no-standby", "--seed",
                            "3", "--no-shrink", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert '"smaller_failure": null' in plain.stdout, plain.stdout[-2000:]


def small_gpu_only_relu(tmp_path: Path) -> Path:
    """ReLU whose GPU-only group holds two small tests: emulated in seconds with --include-gpu-only."""
    folder = tmp_path / "001-relu"
    shutil.copytree(ROOT / "problems/001-relu", folder)
    toml = folder / "problem.toml"
    text = toml.read_text()
    large = 'sizes = [{ N = 16777219 }, { N = 268435456 }]'
    assert large in text
    toml.write_text(text.replace(large, 'sizes = [{ N = 4099 }]'))
    return folder


def test_include_gpu_only_emulates_the_gpu_only_tests_and_the_ac_is_whole(tmp_path):
    folder = small_gpu_only_relu(tmp_path)
    command = [sys.executable, "judge.py", str(folder), RELU, "--backend", "cpu", "--tests", "sample,large", "--no-standby",
               "--seed", "5", "--json"]
    left_out = json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600).stdout)
    emulated = json.loads(subprocess.run(command + ["--include-gpu-only"], cwd=ROOT, capture_output=True, text=True,
                                         timeout=600).stdout)
    gpu_only = ["large/N=4099/uniform", "large/N=4099/alternating-sign"]
    assert [t["name"] for t in left_out["tests"] if t["verdict"] == "NR"] == gpu_only and left_out["partial"]
    assert [(t["name"], t["verdict"]) for t in emulated["tests"]][2:] == [(name, "AC") for name in gpu_only]
    assert emulated["verdict"] == "AC" and not emulated["partial"] and emulated["message"].startswith("all 4 tests")


def test_the_judge_announces_its_tests_with_their_shares_of_the_work():
    events = []
    result = judge_source(load_problem(1), (ROOT / RELU).read_text(), backend="cpu", timing=False, seed=2,
                          patterns=["sample", "large"], on_event=events.append)
    planned = next(e for e in events if isinstance(e, protocol.TestsPlanned))
    assert planned.tests == [t.name for t in result.tests if t.verdict != "NR"] == ["sample/N=8/uniform",
                                                                                   "sample/N=1000/uniform"]
    assert planned.elements == [2 * 8, 2 * 1000]   # input and output
