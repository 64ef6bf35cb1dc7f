"""The judge on the CPU backend: what a GPU would only hang or corrupt on, explained."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge.problems.loader import load_problem, problem_folders
from judge.problems.validator import validate_folder
from judge.submission import judge_source, verdict_of_file

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "data" / "cpu_cases"


def judge(problem, path: Path, tests=("sample",)):
    return judge_source(load_problem(problem), path.read_text(), backend="cpu", timing=False,
                        patterns=list(tests), filename=path.name, seed=11)


def test_early_return_before_barrier_is_barrier_divergence_naming_both_lines():
    r = judge(3, CASES / "early_return_barrier.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "RE", r.message
    assert "barrier divergence" in r.message and "block_sum" in r.message
    assert "line 9" in r.message and "line 6" in r.message   # the barrier, and the early return


def test_hillis_steele_missing_barrier_is_reported_as_a_race():
    r = judge(83, ROOT / "problems/083-multi-block-scan/solutions/rejected/hillis_steele_one_barrier.cu")
    assert r.verdict == "WA"
    assert "data race on `" in r.message and "(shared)" in r.message and "no barrier between" in r.message


def test_a_race_the_observer_cannot_see_is_found_by_the_thread_orders():
    r = judge(3, CASES / "memcpy_tree_race.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "WA", r.message
    assert "data race: the result depends on the order" in r.message


def test_warp_mask_leaving_out_an_active_lane_is_misuse():
    r = judge(3, CASES / "warp_mask_misses_lane.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "RE", r.message
    assert "__shfl_down_sync" in r.message and "0x0000ffff" in r.message and "line 7" in r.message


def test_judge_py_without_a_gpu_uses_the_cpu_backend():
    out = subprocess.run([sys.executable, "judge.py", "problem83",
                          "problems/083-multi-block-scan/solutions/accepted/three_pass_scan.cu",
                          "--tests", "sample,edge", "--json"], cwd=ROOT, capture_output=True, text=True)
    result = json.loads(out.stdout)
    assert out.returncode == 0 and result["verdict"] == "AC" and result["backend"] == "cpu"
    assert "timing needs a GPU" in " ".join(result["notes"]) and result["timing"] is None
    assert len(result["tests"]) == 50


def test_compile_error_is_mapped_to_the_users_line(tmp_path):
    bad = tmp_path / "bad.cu"
    bad.write_text("#include <cuda_runtime.h>\n\n__global__ void k(float* x) { x[0] = undefined_name; }\n"
                   "extern \"C\" void solve(const float* input, float* output, int N) { k<<<1, 1>>>(output); }\n")
    r = judge(1, bad)
    assert r.verdict == "CE" and "bad.cu:3" in r.message and "undefined_name" in r.message
    # The run child started during the build is gone with it.
    assert not _run_children_of(os.getpid())


def _run_children_of(pid: int) -> list[int]:
    """Processes that `pid` started whose command line runs the harness child (inside bubblewrap or not)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"judge.runner" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("folder", problem_folders(), ids=lambda f: f.name)
def test_catalog_solutions_get_their_declared_verdicts_on_cpu(folder):
    report = validate_folder(folder, verdict_of_file("cpu"), jobs=2, races_observed=True)
    assert report.ok, "\n".join([str(f) for f in report.findings] +
                                [f"{r.path.name}: {r.mismatch()}" for r in report.runs if not r.ok])


def test_cli_warns_when_the_run_had_no_filesystem_sandbox():
    env = {**os.environ, "CUDAJUDGE_SANDBOX": "off"}
    out = subprocess.run([sys.executable, "judge.py", "1", "problems/001-relu/solutions/accepted/naive.cu",
                          "--backend", "cpu", "--tests", "sample/N=8/uniform", "--no-standby"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "warning: solve() ran without bubblewrap" in out.stdout.replace("\n", " ")


@pytest.mark.parametrize("source, verdict", [("accepted/naive.cu", "AC"), ("rejected/no_bounds_check.cu", "RE")])
def test_judge_side_imports_no_numpy(source, verdict):
    """The oracle checks outputs; the judge side moves bytes and compares them (guard bytes included)."""
    probe = ("import sys; from judge.problems.loader import load_problem; from judge.submission import judge_source; "
             f"r = judge_source(load_problem(1), open('problems/001-relu/solutions/{source}').read(), backend='cpu', "
             "timing=False, patterns=['sample']); print(r.verdict.value, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [verdict, "False"]


@pytest.mark.parametrize("seed", [11, 1, 2, 3])
@pytest.mark.parametrize("variant, where", [(1, "is past the end of `bins`, dynamic shared memory of "),
                                            (2, "is past the end of `bins`, dynamic shared memory of "),
                                            (3, "of `bins`, dynamic shared memory of ")])
def test_out_of_bounds_access_to_dynamic_shared_memory_is_re_naming_array_index_thread_and_line(variant, where, seed):
    text = (CASES / "shared_histogram_out_of_bounds.cu").read_text()
    r = judge_source(load_problem(4), f"#define VARIANT {variant}\n" + text, backend="cpu", timing=False, seed=seed)
    assert r.verdict == "RE", r.message
    assert re.search(r"out-of-bounds (write|atomic) of 4 bytes of shared memory in histogram_shared block \(", r.message), r.message
    assert where in r.message and " thread (" in r.message and " on line " in r.message


@pytest.mark.parametrize("variant", [1, 2])
def test_out_of_bounds_write_to_dynamic_shared_memory_on_an_unobserved_test_is_found_by_its_guards(variant):
    source = f"#define VARIANT {variant}\n" + (CASES / "shared_histogram_out_of_bounds.cu").read_text()
    r = judge_source(load_problem(4), source, backend="cpu", timing=False, seed=11, patterns=["large"])
    assert r.verdict == "RE", r.message
    assert "out-of-bounds write to dynamic shared memory in histogram_shared block" in r.message and "past the end" in r.message


def test_fault_in_a_kernel_names_the_kernel_block_thread_and_source_line():
    text = (CASES / "shared_histogram_out_of_bounds.cu").read_text()
    line = 1 + next(i for i, l in enumerate(text.splitlines(), 1) if "the faulting line" in l)   # after the #define
    r = judge_source(load_problem(4), "#define VARIANT 4\n" + text, backend="cpu", timing=False, seed=11)
    assert r.verdict == "RE", r.message
    assert "illegal memory access in histogram_shared block" in r.message and "thread (" in r.message
    assert f"in function histogram_shared on line {line} (" in r.message and "\x1f" not in r.message


def test_in_bounds_dynamic_shared_memory_is_accepted():
    source = "#define VARIANT 0\n" + (CASES / "shared_histogram_out_of_bounds.cu").read_text()
    r = judge_source(load_problem(4), source, backend="cpu", timing=False, seed=11)
    assert r.verdict == "AC", r.message


def test_cub_temp_storage_reused_without_a_barrier_is_a_race():
    r = judge(3, CASES / "cub_temp_storage_reused_without_barrier.cu", tests=("sample/N=8/uniform",))
    assert r.verdict == "WA", r.message
    assert "data race on `temp` (shared)" in r.message and "line 14" in r.message and "line 15" in r.message


def test_a_wrong_answer_shows_the_elements_around_it_and_the_small_inputs_with_scalars_as_scalars():
    source = (ROOT / "problems" / "001-relu" / "solutions" / "rejected" / "float4_no_tail.cu").read_text()
    r = judge_source(load_problem(1), source, backend="cpu", timing=False, patterns=["edge/N=5/uniform"], seed=3)
    [test] = r.tests
    m = test.first_mismatch
    assert test.verdict.value == "WA" and m.index == 4            # 5 = one float4 + a tail of 1 left unwritten
    assert m.window_start == 0 and len(m.expected_window) == len(m.got_window) == 5
    assert m.got_window[:4] == m.expected_window[:4] and m.got_window[4] == "nan"
    assert test.inputs_shown["N"] == 5 and len(test.inputs_shown["input"]) == 5

    r = judge_source(load_problem(1), source, backend="cpu", timing=False, patterns=["edge/N=1025/uniform"], seed=3)
    [test] = r.tests
    summary = test.inputs_shown["input"]                          # too large to show whole: its ends and length
    assert test.verdict.value == "WA" and test.first_mismatch.index == 1024 and test.inputs_shown["N"] == 1025
    assert (summary.size, len(summary.first), len(summary.last)) == (1025, 8, 8)


def test_outputs_never_written_hold_the_sentinel_the_runner_filled():
    r = judge(1, ROOT / "tests/data/gpu_cases/relu_half_output.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "WA" and "500 element(s) were never written (still hold the sentinel), the first at index 500" \
        in r.message, r.message


def test_outputs_are_reset_between_the_calls_of_one_test():
    """The second call of a test (another thread order) starts from the sentinel (a NaN) again, not from
    the first call's answer: a solution that answers only once is wrong on the second call."""
    r = judge(1, CASES / "relu_first_call_only.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "WA" and re.search(r"`output`\[0\] is nan instead of", r.message), r.message
