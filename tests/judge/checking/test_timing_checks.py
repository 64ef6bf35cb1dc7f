"""The judge side's checks on the runner's timing: figures that its own clock or the device's copy
bandwidth contradict are rejected, and honest ones pass."""
from __future__ import annotations

import pytest

from judge.checking.timing import TimingRejected, cross_check
from judge.protocol import Sample
from judge.timing.stats import (BATCH_BELOW_S, BATCH_SAMPLE_S, DISTINCT_SETS, INPUT_SETS, MAX_BATCH, WARMUP_CALLS, batched_case,
                                input_set_count, run_samples)

GB = 1e9


def samples(reported_s: float, gap_s: float, count: int = 20, batch: int = 1):
    return [(gap_s, Sample(case="c", batch=batch, seconds=reported_s / batch, warmup=False)) for _ in range(count)]


def test_honest_figures_pass():
    stats = cross_check(samples(100e-6, 180e-6), bytes_moved=0.1 * GB, copy_gbps=4000, batched=False, sets=64)
    assert stats.samples == 20 and stats.median_us == pytest.approx(100)


def test_figure_longer_than_the_judges_clock_saw_is_rejected():
    with pytest.raises(TimingRejected, match="passed on the judge's clock"):
        cross_check(samples(1e-3, 0.5e-3), bytes_moved=1e6, copy_gbps=4000, batched=True, sets=64)


def test_figure_far_shorter_than_the_judges_clock_saw_is_rejected():
    # a runner that reports 10 µs for calls that keep it busy 50 ms each
    with pytest.raises(TimingRejected, match="passed between them"):
        cross_check(samples(10e-6, 50e-3), bytes_moved=1e6, copy_gbps=4000, batched=True, sets=64)


def test_figure_faster_than_copy_bandwidth_is_rejected():
    # 1 GB in 10 µs would be 100 TB/s on a device that copies at 4 TB/s
    with pytest.raises(TimingRejected, match="faster than the device copies memory"):
        cross_check(samples(10e-6, 20e-6), bytes_moved=1 * GB, copy_gbps=4000, batched=False, sets=64)


def test_a_single_call_case_is_its_own_single_call_figure():
    stats = cross_check(samples(100e-6, 180e-6), bytes_moved=0.1 * GB, copy_gbps=4000, batched=False, sets=64)
    assert stats.calls_per_sample == 1 and stats.single_call_us == stats.median_us


def test_a_batched_case_says_so_and_gives_a_call_alone_from_the_warm_up():
    # the first WARMUP_CALLS warm-up calls are cold (40 µs) and left out; alone a call takes 16 µs
    warm = [(60e-6, Sample(case="c", batch=1, seconds=s, warmup=True))
            for s in [40e-6] * WARMUP_CALLS + [16e-6] * 30]
    stats = cross_check(warm + samples(16 * 12e-6, 16 * 20e-6, batch=16), bytes_moved=1e6, copy_gbps=4000,
                        batched=True, sets=64)
    assert stats.calls_per_sample == 16 and stats.median_us == pytest.approx(12)
    assert stats.single_call_us == pytest.approx(16)


def test_warmup_samples_alone_are_no_timing():
    warm = [(1e-3, Sample(case="c", batch=1, seconds=1e-4, warmup=True))]
    with pytest.raises(TimingRejected, match="no timed sample"):
        cross_check(warm, bytes_moved=1e6, copy_gbps=4000, batched=True, sets=64)


@pytest.mark.parametrize("bytes_moved, batched, batch, sets", [(0.1 * GB, False, 4, 4), (1e6, True, 1, 64),
                                                              (1e6, True, 16, 8)])
def test_samples_not_of_the_cases_method_are_rejected(bytes_moved, batched, batch, sets):
    """Batches in a case timed call by call (25 µs at the copy bandwidth), single calls in a batched one,
    or more calls in a batch than the case has input sets: not how the judge asked the runner to time."""
    warm = [(1e-3, Sample(case="c", batch=1, seconds=30e-6, warmup=True))] * 3
    with pytest.raises(TimingRejected, match="where the case is timed in samples of"):
        cross_check(warm + samples(batch * 30e-6, batch * 40e-6, batch=batch), bytes_moved=bytes_moved,
                    copy_gbps=4000, batched=batched, sets=sets)


def test_short_calls_get_one_input_set_per_call_of_a_batch():
    assert input_set_count(1e-3) == INPUT_SETS
    assert input_set_count(1e-6) == min(MAX_BATCH, round(BATCH_SAMPLE_S / 1e-6))


@pytest.mark.parametrize("call_s", [5e-6, 19e-6, 21e-6, 400e-6])
def test_a_batched_case_times_every_subject_in_batches_however_long_its_calls(call_s):
    """The method is the case's: a solution or baseline of 21 µs is a throughput beside one of 19 µs, not
    a single call's latency (two runs of one solution near the boundary read 15 and 20 µs that way)."""
    batches = []

    def sample(batch, warmup):
        batches.append((batch, warmup))
        return call_s
    stats = run_samples(sample, MAX_BATCH, batched=True)
    assert {batch for batch, warmup in batches if not warmup} == {stats.calls_per_sample}
    assert 2 <= stats.calls_per_sample <= MAX_BATCH and stats.single_call_us == pytest.approx(call_s * 1e6)


def test_a_case_not_batched_times_one_call_per_sample_however_short():
    stats = run_samples(lambda batch, warmup: 5e-6, MAX_BATCH, batched=False)
    assert stats.calls_per_sample == 1 and stats.median_us == pytest.approx(5)


def test_whether_a_case_is_batched_follows_its_bytes_at_the_copy_bandwidth():
    assert batched_case(BATCH_BELOW_S * 0.99) and not batched_case(BATCH_BELOW_S * 1.01)


def test_timing_sets_asked_before_the_copy_is_measured_are_never_fewer_than_a_real_device_needs():
    """The sets are asked during the tests: for every catalog problem, each case has at least as many as
    it would need at an H100's or H200's measured copy bandwidth, asked in timing order, and a batched case as
    many distinct seeds; a case timed call by call rotates over copies of DISTINCT_SETS sets' data."""
    from judge.checking.timing import benchmark_cases, benchmark_sets, timing_order
    from judge.problems.expressions import evaluate
    from judge.problems.loader import load_problem, problem_folders

    import numpy as np

    for problem in map(load_problem, problem_folders()):
        sets = benchmark_sets(problem, seed=7)
        cases = timing_order(problem)   # the fewest bytes first, timed while the oracle makes the larger ones' sets
        assert sorted(cases, key=benchmark_cases(problem).index) == benchmark_cases(problem)
        case_bytes = [evaluate(problem.benchmark.bytes, problem.scalars_for(c.size, np.random.default_rng(0)))
                      for c in cases]
        assert case_bytes == sorted(case_bytes), problem.key
        assert [c for c, _ in sets] == sorted((c for c, _ in sets), key=cases.index)
        for case in cases:
            seeds = [seed for c, seed in sets if c == case]
            bytes_moved = evaluate(problem.benchmark.bytes, problem.scalars_for(case.size, np.random.default_rng(0)))
            for copy_gbps in (3000.0, 4300.0):
                call_s = bytes_moved / (copy_gbps * GB)
                assert len(seeds) >= input_set_count(call_s), (problem.key, case.name)
                distinct = len(seeds) if batched_case(call_s) else DISTINCT_SETS
                assert sorted(set(seeds)) == list(range(7, 7 + len(set(seeds)))) and len(set(seeds)) >= distinct
    scan = load_problem(83)
    counts = [[seed for c, seed in benchmark_sets(scan, 0) if c == case] for case in benchmark_cases(scan)]
    # 10^8 elements: two sets' data at four addresses
    assert counts == [[k % DISTINCT_SETS for k in range(INPUT_SETS)], list(range(MAX_BATCH))]
