"""The judge on a real GPU: every harness check with a specific message, timing, and recovery."""
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "data" / "gpu_cases"
pytestmark = pytest.mark.gpu


def judge(problem, name, *, tests=("sample", "edge"), timing=False):
    source = (CASES / name if (CASES / name).exists() else ROOT / name).read_text()
    return judge_source(load_problem(problem), source, backend="gpu", timing=timing, patterns=list(tests),
                        filename=Path(name).name, seed=7)


ACCEPTED_RELU = "problems/001-relu/solutions/accepted/naive.cu"


def test_accepted_with_timing_reports_bandwidth_and_baseline():
    r = judge(1, ACCEPTED_RELU, tests=("sample",), timing=True)
    assert r.verdict == "AC", r.message
    t = r.timing
    assert t is not None and t.samples >= 10 and t.median_us > 0 and t.min_us <= t.median_us
    assert t.copy_gbps > 1000 and 10 < t.sol_pct < 120
    assert t.baseline_us > 0 and t.ratio_to_baseline > 0
    assert len(t.per_case) == 2 and t.per_kernel and t.per_kernel[0].kernel == "relu"
    # timed the smaller case first; reported in the problem's order, the first size the headline
    assert [c.size for c in t.per_case] == [dict(s) for s in load_problem(1).benchmark.sizes]
    assert t.median_us == t.per_case[0].median_us
    assert r.device and "H" in r.device


def test_a_second_timed_judge_uses_the_baseline_the_first_timed(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path))
    first, second = (judge(1, ACCEPTED_RELU, tests=("sample",), timing=True) for _ in range(2))
    assert first.verdict == second.verdict == "AC"
    for before, after in zip(first.timing.per_case, second.timing.per_case, strict=True):
        assert before.baseline_age_s is None
        assert after.baseline_age_s is not None and 0 <= after.baseline_age_s < 600
        assert after.baseline_us == before.baseline_us
        assert after.ratio_to_baseline == pytest.approx(after.baseline_us / after.median_us)


def test_result_cached_between_calls_fails_timing_verification():
    r = judge(1, "relu_caches_result.cu", tests=("sample/N=8/uniform",), timing=True)
    assert r.verdict == "WA"
    assert "input set" in r.message and "cache" in r.message


def test_skipping_done_work_is_timed_as_real_work():
    honest = judge(1, ACCEPTED_RELU, tests=("sample",), timing=True)
    skipper = judge(1, "relu_skips_done_work.cu", tests=("sample",), timing=True)
    assert skipper.verdict == "AC", skipper.message
    # Outputs are reset before every timed call, so the shortcut never fires.
    assert skipper.timing.median_us > 0.7 * honest.timing.median_us


def test_write_one_past_the_end_is_caught_by_guard_bytes():
    r = judge(1, "relu_one_past_end.cu")
    assert r.verdict == "RE"
    assert "out-of-bounds write" in r.message and "after the end of `output`" in r.message


def test_write_to_input_is_caught():
    r = judge(1, "relu_writes_input.cu")
    assert r.verdict == "WA" and "wrote to its input `input`" in r.message


def test_one_element_past_the_end_of_an_input_is_caught_by_its_guard_bytes():
    r = judge(1, "relu_one_past_input.cu", tests=("sample",))
    assert r.verdict == "RE"
    assert "out-of-bounds write" in r.message and "after the end of `input`" in r.message


def test_a_changed_input_element_is_named_with_its_values_at_every_size():
    # The inputs of a GPU test are uploaded from the oracle's file and only a changed one comes back:
    # the change is found the same way in a sample test and in one of 2^28 elements.
    for tests, n in ((("sample/N=8/uniform",), 8), (("large/N=268435456/alternating-sign",), 268435456)):
        r = judge(1, "relu_scribbles_last_input.cu", tests=tests)
        assert r.verdict == "WA", r.message
        assert f"element {n - 1} was" in r.message and "now -12345.0" in r.message and "1 element(s) changed" in r.message


def test_untouched_output_is_reported_as_sentinel():
    r = judge(1, "relu_half_output.cu")
    assert r.verdict == "WA" and "never written (still hold the sentinel)" in r.message


def test_endless_kernel_is_tle_and_the_gpu_recovers():
    r = judge(1, "relu_endless.cu", tests=("sample/N=8/uniform",))
    assert r.verdict == "TLE" and "did not finish" in r.message
    after = judge(1, ACCEPTED_RELU, tests=("sample",))
    assert after.verdict == "AC", after.message


def test_illegal_address_names_the_kernel_and_launch():
    r = judge(1, "relu_illegal_address.cu", tests=("sample/N=1000/uniform",))
    assert r.verdict == "RE"
    assert "relu_wild" in r.message and "line 10" in r.message and "illegal" in r.message.lower()


def test_block_of_2048_threads_is_refused_before_launch():
    r = judge(1, "relu_block_2048.cu", tests=("sample/N=8/uniform",))
    assert r.verdict == "RE"
    assert "2048" in r.message and "relu" in r.message and "1024" in r.message


def test_problem_83_accepted_on_gpu_only_sizes():
    r = judge(83, "problems/083-multi-block-scan/solutions/accepted/three_pass_scan.cu", tests=("large",))
    assert r.verdict == "AC", r.message
    assert any(t.size.get("n") == 100_000_000 for t in r.tests)


def test_judge_kernels_compiled_once_per_account(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path))
    source = (ROOT / ACCEPTED_RELU).read_text()

    def run(account):
        r = judge_source(load_problem(1), source, backend="gpu", timing=False, patterns=["sample"], seed=7,
                         account=account)
        assert r.verdict == "AC", r.message
        folder = tmp_path / "cupy-kernels" / account
        return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}

    first = run("alice")
    assert first, "the run child compiled no kernel into the account's folder"
    assert run("alice") == first            # the second run loaded them all: nothing compiled, nothing rewritten
    bob = run("bob")                        # another account compiles its own
    assert bob.keys() == first.keys() and not set(bob.values()) & set(first.values())


def test_a_run_that_hangs_while_timed_is_tle_on_the_benchmark_and_has_no_timing():
    r = judge(1, "relu_endless_when_timed.cu", tests=("sample",), timing=True)
    assert r.verdict == "TLE" and r.tests[-1].name == "benchmark", r.message
    assert "did not finish" in r.tests[-1].message and r.timing is None
