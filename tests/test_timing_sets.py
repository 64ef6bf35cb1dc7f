"""Timing's input sets are made in parallel threads yet are exactly the sets a sequential
`prepare` makes: same data, same guard placement, distinct buffers, the reference's outputs. Short
calls get enough sets that a batch of them never calls one set twice."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from judge.backends.cpu import CpuBackend
from judge.build.cpu_build import build_cpu
from judge.harness.correctness import prepare, read_outputs, release
from judge.harness import timing
from judge.harness.timing import INPUT_SETS, _prepare_sets
from judge.problems.loader import load_problem, load_reference
from judge.problems import plan, test_data

ROOT = Path(__file__).resolve().parents[1]


def test_parallel_sets_equal_sequential_ones():
    problem = load_problem(1)
    reference = load_reference(problem)
    source = (ROOT / "problems/001-relu/solutions/accepted/naive.cu").read_text()
    compile_info, library = build_cpu(source, filename="naive.cu")
    assert library is not None, compile_info.log
    backend = CpuBackend(problem, library, {}, lambda: None)
    case = plan.TestCase("benchmark/N=100003/uniform", "benchmark", {"N": 100003}, "uniform", True, False)

    sets, expected = _prepare_sets(backend, problem, reference, case, seed=7)
    sequential = [prepare(backend, problem, reference, case, 7 + k) for k in range(INPUT_SETS)]
    try:
        assert len({s.buffers["input"].address for s in sets + sequential}) == 2 * INPUT_SETS
        for parallel, one, want in zip(sets, sequential, expected):
            np.testing.assert_array_equal(parallel.data.arrays["input"], one.data.arrays["input"])
            np.testing.assert_array_equal(parallel.buffers["input"].before, one.buffers["input"].before)
            np.testing.assert_array_equal(want["output"], test_data.expected_outputs(problem, reference, one.data)["output"])
            assert backend.call_solve(parallel.args(problem)) is None
            np.testing.assert_array_equal(read_outputs(backend, problem, parallel)["output"], want["output"])
        assert not np.array_equal(sets[0].data.arrays["input"], sets[1].data.arrays["input"])
    finally:
        for s in sets + sequential:
            release(backend, s)


def test_short_calls_rotate_over_one_input_set_per_call_of_a_batch():
    problem = load_problem(1)   # ReLU: 8 bytes per element
    case = plan.TestCase("benchmark/N=1000/uniform", "benchmark", {"N": 1000}, "uniform", True, False)
    big = plan.TestCase("benchmark/N=268435456/uniform", "benchmark", {"N": 268435456}, "uniform", True, False)
    assert timing.input_set_count(problem, big, copy_gbps=4000) == INPUT_SETS
    assert timing.input_set_count(problem, case, copy_gbps=4000) == timing.MAX_BATCH   # 2 ns at copy speed
    medium = plan.TestCase("benchmark/N=2500000/uniform", "benchmark", {"N": 2500000}, "uniform", True, False)
    assert timing.input_set_count(problem, medium, copy_gbps=4000) == 50   # 5 µs a call: 50 last 250 µs


@pytest.mark.parametrize("distinct", [4, 9, 32, 64])
def test_a_batch_never_calls_an_input_set_twice(distinct):
    """_run_samples with a sampler that does what the real ones do: take the next sets of the rotation."""
    take = timing._rotation(distinct)
    batches = []

    def sample(batch: int) -> float:
        ks = take(batch)
        batches.append(ks)
        return 5e-6   # a 5 µs call: a batch of 50 lasts BATCH_SAMPLE_S
    stats = timing._run_samples(sample, distinct)
    timed = [ks for ks in batches if len(ks) > 1]
    assert stats.samples >= timing.MIN_SAMPLES and timed
    assert all(len(set(ks)) == len(ks) <= distinct for ks in timed)
    batch = min(distinct, 50)
    assert max(len(ks) for ks in timed) == batch
    # the stopping rule counts GPU time, the whole batch's: 100 ms are 400 samples of 50 calls
    assert abs(stats.samples - min(timing.MAX_SAMPLES, timing.MIN_TOTAL_S / (5e-6 * batch))) <= 1


def test_warm_up_lasts_its_wall_time_whatever_a_call_costs():
    """Three calls and WARMUP_S of wall time: a 1 µs call is not warmed up 25 000 times."""
    calls = []

    def sample(batch: int) -> float:
        calls.append(batch)
        time.sleep(0.001)   # a sample's reset, flush and check take far longer than a short call
        return 1e-6
    began = time.perf_counter()
    timing._run_samples(sample, 4)
    warm = calls[:calls.index(4)] if 4 in calls else calls
    assert timing.WARMUP_CALLS <= len(warm) <= 2 * timing.WARMUP_S / 0.001
    assert time.perf_counter() - began >= timing.WARMUP_S
