"""Timing from the judge side: the oracle makes each benchmark case's input sets and expected outputs,
the runner times solve() on them, every output it reports is checked here, and its figures are held
against two things the runner cannot reach:

- the judge side's own clock. A sample's events lie between the runner's previous message and its
  Sample message, so the samples reported up to any point may not take longer than the judge side
  saw pass until that point's arrival (WALL_SLACK for the two clocks' rates and resolution): this
  bounds the per-call time from above. The bound is on running totals, not on each sample, since a
  message the judge side reads late shortens the next one's gap by as much as it lengthened its own.
  The untimed work of a sample (the L2 flush, resetting the outputs, comparing them with the first
  call's, one synchronization and one message) moves at most a few times the bytes a call moves and
  costs well under OVERHEAD_S of host time, so over the samples of a case the median arrival gap may
  not exceed OVERHEAD_FACTOR times the median reported sample plus OVERHEAD_S: a lower bound.
- the physical limit: a call cannot move the problem's bytes faster than the device copies memory
  (measured by the oracle, not the runner), give or take COPY_SLACK for cache effects at small sizes.

A case whose figures fail either check is not reported as a time: the Result says why, and no
leaderboard takes it (it has no timing).
"""
from __future__ import annotations

import random
import time
from typing import NamedTuple

import numpy as np

from judge.checking.data import Oracle
from judge.checking.tests import call_deadline, copy_outputs, lay_out
from judge.problems.expressions import evaluate
from judge.problems.plan import TestCase, size_label
from judge.protocol import (BaselineTimed, CaseTimed, CopiedBack, CopyBack, CopyMeasured, MeasureCopy, OutputsReady, Place,
                            Placed, Release, Released, Sample, TimeBaseline, TimeCase, TimingCaseStarted, TimingDone,
                            Verified)
from judge.result import CaseTiming, KernelTime, TestResult, Timing, TimingFigures, Verdict
from judge.timing import baseline_cache
from judge.timing.stats import MAX_BATCH, Stats, batched_case, distinct_set_count, input_set_count

WALL_SLACK = 1.01, 100e-6      # factor and seconds a sample's events may exceed the judge side's gap
OVERHEAD_FACTOR, OVERHEAD_S = 3.0, 5e-3
SETUP_S = 60.0                 # a runner's first message of a case may take this much longer
COPY_SLACK = 1.25              # reported bandwidth may exceed the copy bandwidth by this factor at most
# A case's input sets are asked of the oracle during the tests, before the device's copy bandwidth is
# measured: how many a case needs is worked out at a copy bandwidth no device reaches (B200's HBM3e peak),
# so that a batch of short calls never lacks distinct sets (a slower device gets more than it needs).
FASTEST_COPY_GBPS = 8000.0


class TimingRejected(Exception):
    """The runner's figures for a case contradict the judge side's clock or the device's bandwidth."""


def benchmark_cases(problem) -> list[TestCase]:
    return [TestCase(f"benchmark/{size_label(size)}/{dist}", "benchmark", dict(size), dist, True, False)
            for size in problem.benchmark.sizes for dist in problem.benchmark.distributions]


def _case_bytes(problem, case: TestCase) -> float:
    return evaluate(problem.benchmark.bytes, problem.scalars_for(case.size, np.random.default_rng(0)))


def timing_order(problem) -> list[TestCase]:
    """The benchmark cases in the order they are timed: the fewest bytes first. Their input sets are asked
    of the oracle in this order, so that the small cases are timed while it still makes the large ones'
    (10^8 elements: about a second of the host's time each)."""
    return sorted(benchmark_cases(problem), key=lambda case: _case_bytes(problem, case))


def benchmark_sets(problem, seed: int) -> list[tuple[TestCase, int]]:
    """(case, rng seed) of every input set of every benchmark case, in the order they are timed; sets of
    one seed are one set's data at addresses of their own (distinct_set_count)."""
    sets = []
    for case in timing_order(problem):
        call_s = _case_bytes(problem, case) / (FASTEST_COPY_GBPS * 1e9)
        sets += [(case, seed + k % distinct_set_count(call_s)) for k in range(input_set_count(call_s))]
    return sets


def cross_check(samples: list[tuple[float, Sample]], bytes_moved: float, copy_gbps: float, batched: bool,
                sets: int) -> Stats:
    """The stats of a case's timed samples, once its figures pass the checks; TimingRejected else.
    `samples`: (seconds since the runner's previous message, the Sample) in order; `batched`: how the
    runner was told to time the case; `sets`: its input sets, which the calls of one batch may not outnumber."""
    seen = claimed = 0.0
    for count, (gap, s) in enumerate(samples, start=1):
        seen += gap
        claimed += s.seconds * s.batch
        if claimed > seen * WALL_SLACK[0] + WALL_SLACK[1]:
            raise TimingRejected(f"the first {count} sample(s) reported {claimed * 1e6:.1f} µs, but only "
                                 f"{seen * 1e6:.1f} µs passed on the judge's clock")
    timed = [(gap, s) for gap, s in samples if not s.warmup]
    if not timed:
        raise TimingRejected("the run reported no timed sample")
    gaps = float(np.median([gap for gap, _ in timed]))
    reported = float(np.median([s.seconds * s.batch for _, s in timed]))
    if gaps > OVERHEAD_FACTOR * reported + OVERHEAD_S:
        raise TimingRejected(f"samples reported {reported * 1e6:.1f} µs each (median), but {gaps * 1e6:.1f} µs "
                             f"passed between them on the judge's clock")
    stats = Stats.of([s.seconds for _, s in timed], max(s.batch for _, s in timed),
                     [s.seconds for _, s in samples if s.warmup and s.batch == 1])
    floor_s = bytes_moved / (copy_gbps * 1e9) / COPY_SLACK
    if stats.median_us / 1e6 < floor_s:
        raise TimingRejected(f"{stats.median_us:.2f} µs per call would move the problem's {bytes_moved:.4g} bytes "
                             f"faster than the device copies memory ({copy_gbps:.0f} GB/s): impossible")
    batches = sorted({s.batch for _, s in timed})
    asked = range(2, min(MAX_BATCH, sets) + 1) if batched else range(1, 2)
    if len(batches) > 1 or batches[0] not in asked:
        raise TimingRejected(f"samples of {', '.join(map(str, batches))} call(s) each, where the case is timed in "
                             f"samples of {asked.start}" + (f" to {asked.stop - 1}" if len(asked) > 1 else ""))
    return stats


def _kernel_breakdown(launches) -> list[KernelTime]:
    grouped: dict[tuple, KernelTime] = {}
    for launch in launches:
        key = (launch.kernel, launch.grid, launch.block, launch.shared_bytes)
        if key in grouped:
            grouped[key].calls += 1
            grouped[key].total_us += launch.elapsed_us or 0.0
        else:
            grouped[key] = KernelTime(kernel=launch.kernel, grid=list(launch.grid), block=list(launch.block),
                                      shared_bytes=launch.shared_bytes, total_us=launch.elapsed_us or 0.0)
    return list(grouped.values())


class TimedCase(NamedTuple):
    """A case whose solution is timed: the oracle keeps its input sets (`requests`) for the baseline."""
    case: TestCase
    stats: Stats
    launches: list
    scalars: dict
    requests: list[int]
    batched: bool


def _time_case(run, oracle: Oracle, fd: int, case: TestCase, copy: CopyMeasured) -> TimedCase | TestResult:
    """One case's solution timed; a TestResult on failure."""
    requests = [run.request(i) for i, (wanted, _, _) in enumerate(run.wanted) if wanted == case]
    taken = {r: oracle.take(r) for r in dict.fromkeys(requests)}   # a request of several sets taken once
    try:
        return _time_sets(run, oracle, fd, case, copy, requests, [taken[r] for r in requests])
    finally:
        for data in taken.values():
            data.close()


def _time_sets(run, oracle: Oracle, fd: int, case: TestCase, copy: CopyMeasured, requests,
               datas) -> TimedCase | TestResult:
    problem = run.problem
    count = len(datas)
    bytes_moved = evaluate(problem.benchmark.bytes, datas[0].scalars)
    batched = batched_case(bytes_moved / (copy.gbps * 1e9))
    buffers, start = [], 0   # from the file's start, over the pages the tests' buffers left there
    for k, data in enumerate(datas):
        b = lay_out(problem, data, fd, random.Random(f"timing/{run.seed}/{k}"), prefix=f"set{k}/", start=start,
                    link_folder=run.link_folder())
        buffers.append(b)
        start = b.total_bytes()
    run.runner.send(Place(test=case.name, buffers=[s for b in buffers for s in b.slots.values()]))
    run.runner.expect((Placed,))
    run.runner.send(TimeCase(case=case.name, sets=count, scalars=[d.scalars for d in datas], batched=batched,
                             digest=[data.digest_keys() for data in datas]))
    samples: list[tuple[float, Sample]] = []
    last = time.monotonic()
    failure: TestResult | None = None
    # Between two messages of the runner lie one sample (a batch of calls of a batched case, or one call),
    # or one call and its outputs' copy: a call's deadline and the time to move every set.
    # Before the first, the runner also sets up its timer and compiles its fill and compare kernels.
    deadline = call_deadline(run.deadline_s, buffers[-1])
    setup_s = SETUP_S
    while True:
        event = run.runner.expect((OutputsReady, Sample, CaseTimed), deadline + setup_s)
        setup_s = 0.0
        now = time.monotonic()
        gap, last = now - last, now
        if isinstance(event, Sample):
            samples.append((gap, event))
        elif isinstance(event, OutputsReady):
            failure = _check_set(run, oracle, fd, buffers, datas, requests, event)
            run.runner.send(Verified(ok=failure is None))
            last = time.monotonic()
            if failure is not None:
                break
        else:
            break
    run.runner.send(Release(test=case.name))
    run.runner.expect((Released,))
    if failure is not None:
        oracle.forget(requests)
        return failure
    stats = cross_check(samples, bytes_moved, copy.gbps, batched, count)
    return TimedCase(case, stats, event.per_kernel, datas[0].scalars, requests, batched)


def _baselines(run, oracle: Oracle, copy: CopyMeasured, timed: list[TimedCase]) -> list[tuple[Stats, float | None]]:
    """Each case's baseline figures, timed as its solution was, and how many seconds ago: kept from an
    earlier judge on this GPU (judge/timing/baseline_cache.py), else timed now by the oracle on this judge's
    input sets (None), once the run process has ended (run.end_runner): what a submission leaves running
    on the GPU would slow the baseline and, kept, every later judge's ratio."""
    keys = [baseline_cache.baseline_key(run.problem, t.case.name, t.batched, len(t.requests), copy.device_id)
            for t in timed]
    figures = [baseline_cache.recall(key, copy.gbps) for key in keys]
    if None in figures:
        run.end_runner()
    for i, (t, key) in enumerate(zip(timed, keys)):
        if figures[i] is None:
            oracle.link.send(TimeBaseline(case=t.case.name, requests=t.requests, batched=t.batched))
            b: BaselineTimed = oracle.reply(BaselineTimed)
            stats = Stats(b.samples, b.median_us, b.min_us, b.iqr_us, b.noisy, b.calls_per_sample, b.single_call_us)
            baseline_cache.keep(key, copy.gbps, stats)
            figures[i] = stats, None
        oracle.forget(t.requests)
    return figures


def _check_set(run, oracle: Oracle, fd: int, buffers, datas, requests, event: OutputsReady) -> TestResult | None:
    k = event.set
    if not 0 <= k < len(datas):
        return TestResult(name="benchmark", size={}, distribution="-", verdict=Verdict.RE,
                          message=f"the process running solve() reported input set {k}, which does not exist")
    if event.error is not None:
        return TestResult(name="benchmark", size={}, distribution="-", verdict=Verdict(event.error.verdict),
                          message=f"a timed call failed: {event.error.message}")
    if event.first and datas[k].digests_match(event.digests):
        return None   # the bytes the oracle expects (judge/output_digest.py)
    if event.digests:   # outputs left on the device, whose digests were not the expected ones
        run.runner.send(CopyBack(test=f"set{k}", buffers=[f"set{k}/{p.name}" for p in run.problem.params if p.is_output]))
        run.runner.expect((CopiedBack,), call_deadline(0.0, buffers[k]))
    got = copy_outputs(run.problem, buffers[k], fd, oracle, prefix=f"set{k}/")
    try:
        report = oracle.check(requests[k], got.path, got.slots)
    finally:
        got.close()
    if not report.mismatches:
        return None
    m = report.first
    why = (f"the first call on timing input set {k + 1} went wrong" + (
        " although the calls before it were right: does the solution cache results between calls?" if k else "")
           if event.first else
           f"a timed call on input set {k + 1} gave a wrong answer although earlier calls were right")
    return TestResult(name="benchmark", size={}, distribution="-", verdict=Verdict.WA,
                      message=f"{why}: `{m.output}`[{m.index}] expected {m.expected}, got {m.got}. Does the solution "
                              f"cache results between calls, or skip work when the output already looks done?")


def measure(run, oracle: Oracle, fd: int, tests: list[TestResult]) -> Timing | None:
    """Time every benchmark case; a failing timed call appends its TestResult to `tests`; a case whose
    figures fail the cross-checks leaves the run without timing, and a note says why."""
    oracle.link.send(MeasureCopy())
    copy: CopyMeasured = oracle.reply(CopyMeasured)
    timed: list[TimedCase] = []
    for case in timing_order(run.problem):
        run.on_event(TimingCaseStarted(case=case.name))
        try:
            outcome = _time_case(run, oracle, fd, case, copy)
        except TimingRejected as exc:
            run.notes.append(f"timing rejected on {case.name}: {exc}; no time is reported for this run")
            return None
        if isinstance(outcome, TestResult):
            tests.append(outcome)
            return None
        timed.append(outcome)
    order = [case.name for case in benchmark_cases(run.problem)]   # the Result's, the problem's
    timed.sort(key=lambda t: order.index(t.case.name))
    if callable_baseline(run.problem):
        baselines = _baselines(run, oracle, copy, timed)
    else:
        baselines = [(None, None)] * len(timed)
        oracle.forget([r for t in timed for r in t.requests])
    cases: list[CaseTiming] = []
    per_kernel = next(filter(None, (_kernel_breakdown(t.launches) for t in timed)), [])
    for (case, stats, _, scalars, _, _), (base, base_age_s) in zip(timed, baselines):
        seconds = stats.median_us / 1e6
        bytes_moved = evaluate(run.problem.benchmark.bytes, scalars)
        flops = evaluate(run.problem.benchmark.flops, scalars)
        gbps = bytes_moved / seconds / 1e9
        cases.append(CaseTiming(size=case.size, distribution=case.distribution, samples=stats.samples,
                                median_us=stats.median_us, min_us=stats.min_us, iqr_us=stats.iqr_us,
                                noisy=stats.noisy, gbps=gbps, sol_pct=100 * gbps / copy.gbps,
                                gflops=(flops / seconds / 1e9) if flops else None,
                                calls_per_sample=stats.calls_per_sample, single_call_us=stats.single_call_us,
                                baseline_us=base.median_us if base else None,
                                baseline_calls_per_sample=base.calls_per_sample if base else None,
                                baseline_single_call_us=base.single_call_us if base else None,
                                baseline_age_s=base_age_s,
                                ratio_to_baseline=(base.median_us / stats.median_us) if base else None))
    headline = {name: getattr(cases[0], name) for name in TimingFigures.model_fields}
    timing = Timing(**headline, copy_gbps=copy.gbps, per_kernel=per_kernel, per_case=cases)
    run.on_event(TimingDone(timing=timing))
    return timing


def callable_baseline(problem) -> bool:
    """Whether reference.py defines a baseline: the problem declares one in its benchmark spec."""
    return bool(getattr(problem.benchmark, "baseline", None))
