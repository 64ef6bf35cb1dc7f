"""GPU timing, as ARCHITECTURE.md's "Timing" section specifies.

Build, module load and first calls are never timed. Each sample flushes L2, resets the outputs,
and times solve() between two events; inputs rotate among several sets at distinct addresses,
and the outputs of timed calls are verified, so a kernel that caches or skips work fails.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from threading import Event
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from judge.harness import buffers as B
from judge.harness.correctness import Prepared, compare_outputs, make_case_data, prepare, read_outputs, release
from judge.harness.same_bits import SameBits
from judge.problems.api import SumBound
from judge.problems.expressions import evaluate
from judge.problems.model import Problem
from judge.problems.plan import TestCase, size_label
from judge.problems.test_data import TestData, expected_outputs
from judge.result import CaseTiming, KernelTime, Timing, TimingFigures

INPUT_SETS = 4                 # rotation over at least this many input sets
WARMUP_CALLS, WARMUP_S = 3, 0.025
MIN_SAMPLES, MIN_TOTAL_S = 10, 0.1
MAX_SAMPLES, MAX_TOTAL_S = 500, 2.0
TARGET_SEM = 0.005             # stop once the standard error of the mean is ≤ 0.5% of the median
NOISY_SPREAD = 0.05            # IQR / median above this flags the case as noisy
BATCH_BELOW_S = 20e-6          # calls shorter than this are timed in batches of distinct inputs,
BATCH_SAMPLE_S = 250e-6        # of enough calls to last this long: the event pair's own cost, a few µs,
                               # then stays about 1% of a sample whatever the batch
MAX_BATCH = 64                 # and so at most this many input sets
COPY_PROBE_BYTES = 1 << 30


class TimedCallFailed(Exception):
    """A call during timing went wrong (a wrong answer: the solution caches or skips work; or an error)."""

    def __init__(self, verdict: str, message: str):
        super().__init__(message)
        self.verdict = verdict


@dataclass
class Stats:
    samples: int
    median_us: float
    min_us: float
    iqr_us: float
    noisy: bool

    @classmethod
    def of(cls, seconds: list[float]) -> "Stats":
        us = np.asarray(seconds) * 1e6
        q1, med, q3 = np.percentile(us, [25, 50, 75])
        return cls(len(us), float(med), float(us.min()), float(q3 - q1), bool((q3 - q1) / med > NOISY_SPREAD))


def _enough(seconds: list[float], batch: int) -> bool:
    """`seconds`: the per-call time of each sample so far, samples of `batch` calls."""
    total = sum(seconds) * batch
    if len(seconds) >= MAX_SAMPLES or total >= MAX_TOTAL_S:
        return True
    if len(seconds) < MIN_SAMPLES or total < MIN_TOTAL_S:
        return False
    sem = float(np.std(seconds, ddof=1)) / math.sqrt(len(seconds))
    return sem <= TARGET_SEM * float(np.median(seconds))


class Timer:
    """Event timing on the backend's stream, with an L2 flush before every sample."""

    def __init__(self, backend):
        self.cp, self.stream = backend.cp, backend.stream
        l2 = self.cp.cuda.Device().attributes["L2CacheSize"]
        self.flush_buffer = self.cp.empty(2 * l2, dtype=self.cp.uint8)
        self._flushes = 0
        self._start, self._end = self.cp.cuda.Event(), self.cp.cuda.Event()

    def flush_l2(self) -> None:
        """A memset, as nvbench flushes: 0.04 ms for an H200's 2 × 60 MB, where CuPy's fill, a byte
        per thread, took 0.6 ms of every sample."""
        self._flushes += 1
        self.flush_buffer.data.memset_async(self._flushes & 0xFF, self.flush_buffer.nbytes, self.stream)

    def time(self, call, then=None) -> float:
        """Seconds between two events around call(). then() enqueues work after the end event (the
        sample's checks), done by the time this returns: one synchronization per sample."""
        self.flush_l2()
        self._start.record(self.stream)
        call()
        self._end.record(self.stream)
        if then is not None:
            then()
        self.stream.synchronize()
        return self.cp.cuda.get_elapsed_time(self._start, self._end) / 1e3

    def copy_bandwidth_gbps(self) -> float:
        """Device-to-device copy, bytes read plus written per second: the speed of light for memory-bound work."""
        src = self.cp.ones(COPY_PROBE_BYTES, dtype=self.cp.uint8)
        dst = self.cp.empty_like(src)
        with self.stream:
            dst[...] = src
            times = [self.time(lambda: dst.__setitem__(Ellipsis, src)) for _ in range(5)]
        del src, dst
        return 2 * COPY_PROBE_BYTES / float(np.median(times)) / 1e9


def _sizing_scalars(problem: Problem, case: TestCase) -> dict:
    """A case's scalars for estimates made before its data: a random scalar only sizes them."""
    return problem.scalars_for(case.size, np.random.default_rng(0))


def input_set_count(problem: Problem, case: TestCase, copy_gbps: float) -> int:
    """How many input sets a case rotates over: INPUT_SETS, or, for calls expected under
    BATCH_BELOW_S at copy bandwidth, one per call of a batch, so that no call of a batch finds its
    output already written, or its input left in L2, by an earlier call on the same set. Copy
    bandwidth bounds a call's time from below, so there are never fewer sets than calls in a batch;
    and the sets together hold about what the device copies in BATCH_SAMPLE_S."""
    expected_s = evaluate(problem.benchmark.bytes, _sizing_scalars(problem, case)) / (copy_gbps * 1e9)
    return max(INPUT_SETS, _batch_for(expected_s, MAX_BATCH))


def _batch_for(call_s: float, distinct: int) -> int:
    """Calls per sample: 1 from BATCH_BELOW_S up, else enough to last BATCH_SAMPLE_S, on distinct sets."""
    if call_s >= BATCH_BELOW_S:
        return 1
    return min(MAX_BATCH, distinct, math.ceil(BATCH_SAMPLE_S / max(call_s, 1e-9)))


class Cancelled(Exception):
    """Preparing a benchmark case was called off (a waiting child's job did not need it)."""


def _prepare_sets(backend, problem: Problem, reference: ModuleType, case: TestCase, seed: int,
                  count: int = INPUT_SETS, stop: Event | None = None) -> tuple[list[Prepared], list[dict]]:
    """The `count` input sets of one benchmark case and their expected outputs. Making the data and
    running the reference is most of a timed judge's wall time at GB sizes: the sets are made in
    parallel threads (NumPy releases the GIL), then placed on the device in order. Once `stop` is
    set, the next set raises Cancelled."""
    def cancelled() -> None:
        if stop is not None and stop.is_set():
            raise Cancelled

    def make(k: int):
        cancelled()
        data, rng = make_case_data(problem, reference, case, seed + k)
        return (data, rng), expected_outputs(problem, reference, data)

    with ThreadPoolExecutor(min(count, INPUT_SETS)) as pool:
        made = list(pool.map(make, range(count)))
    sets: list[Prepared] = []
    try:
        for k, (data_rng, _) in enumerate(made):
            cancelled()
            sets.append(prepare(backend, problem, reference, case, seed + k, data_rng))
    except BaseException:
        for s in sets:
            release(backend, s)
        raise
    return sets, [expected for _, expected in made]


@dataclass
class CaseSets:
    """One benchmark case's input sets on the device, with what resets and checks them there."""
    case: TestCase
    sets: list[Prepared]
    expected: list[dict]          # the reference's outputs: on the device, or on the host for a custom check
    initial: list[dict]           # in/out parameters' initial content, on the device

    def release(self, backend) -> None:
        for s in self.sets:
            release(backend, s)
        self.sets, self.expected, self.initial = [], [], []


def prepare_case(backend, problem: Problem, reference: ModuleType, case: TestCase, seed: int, count: int,
                 stop: Event | None = None) -> CaseSets:
    sets, expected = _prepare_sets(backend, problem, reference, case, seed, count, stop)
    cp = backend.cp
    initial = [{p.name: cp.asarray(s.data.arrays[p.name]) for p in problem.params if p.role.value == "inout"}
               for s in sets]
    if problem.tolerance.policy != "custom":
        # Checked on the device: the host's GBs of inputs and outputs are not needed any more.
        expected = [_on_device(cp, e) for e in expected]
        sets = [Prepared(TestData(s.data.scalars, {}), s.buffers) for s in sets]
    return CaseSets(case, sets, expected, initial)


def benchmark_cases(problem: Problem) -> list[TestCase]:
    return [TestCase(f"benchmark/{size_label(size)}/{dist}", "benchmark", dict(size), dist, True, False)
            for size in problem.benchmark.sizes for dist in problem.benchmark.distributions]


def device_bytes(problem: Problem, case: TestCase, count: int) -> int:
    """About what prepare_case(..., count) holds on the device: every buffer, an expected copy of
    each output and an initial copy of each in/out parameter."""
    scalars = _sizing_scalars(problem, case)
    copies = {"in": 1, "out": 2, "inout": 3}
    return count * sum(problem.element_count(p, scalars) * p.np_dtype.itemsize * copies[p.role.value]
                       for p in problem.params if p.is_pointer)


def _on_device(cp, expected: dict) -> dict:
    """One set's expected outputs placed on the device, where its timed outputs are checked."""
    def place(value):
        if isinstance(value, SumBound):
            return SumBound(cp.asarray(value.value), cp.asarray(value.abs_terms),
                            cp.asarray(value.n_terms) if isinstance(value.n_terms, np.ndarray) else value.n_terms)
        return cp.asarray(value) if isinstance(value, np.ndarray) else value
    return {name: place(value) for name, value in expected.items()}


def _checker(backend, problem: Problem, reference: ModuleType, cs: CaseSets):
    """check(k): the report of set k's outputs against the reference, or None when they pass. Checked
    on the device with the problem's tolerance: reading GB of outputs back for every timed call that
    is not bit-identical to the first (a float scan whose rounding depends on timing) would take
    seconds each. A custom check runs reference.check() on the host."""
    sets = cs.sets
    if problem.tolerance.policy == "custom":
        return lambda k: compare_outputs(problem, reference, sets[k].data, read_outputs(backend, problem, sets[k]),
                                         cs.expected[k])
    views = _output_views(backend, problem, sets)
    return lambda k: compare_outputs(problem, reference, sets[k].data, views[k], cs.expected[k])


def _resetter(backend, problem: Problem, cs: CaseSets):
    """reset(ks): the outputs of sets ks (consecutive, as _rotation hands them out) back to their
    state before any call: one fill launch over the outputs proper of all of them, and a copy on the
    device for each in/out parameter."""
    outs = [p for p in problem.params if p.role.value == "out"]
    inouts = [p.name for p in problem.params if p.role.value == "inout"]
    fill = backend.kernels.fill_rows([(s.buffers[p.name].address, s.buffers[p.name].nbytes, B.reset_pattern(p))
                                      for s in cs.sets for p in outs])

    def reset(ks: list[int]) -> None:
        fill(ks[0] * len(outs), len(ks) * len(outs))
        for k in ks:
            for name in inouts:
                backend.device_view(cs.sets[k].buffers[name])[...] = cs.initial[k][name]

    return reset


def _output_views(backend, problem: Problem, sets: list[Prepared]) -> list[dict]:
    return [{p.name: backend.device_view(s.buffers[p.name]) for p in problem.params if p.is_output} for s in sets]


def _rotation(count: int):
    """take(batch): the next `batch` input sets in turn, so consecutive calls never reuse a set's data."""
    state = {"next": 0}

    def take(batch: int) -> list[int]:
        ks = [(state["next"] + i) % count for i in range(batch)]
        state["next"] = (state["next"] + batch) % count
        return ks

    return take


def _bit_patterns(cp, array):
    return array.view({1: cp.uint8, 2: cp.uint16, 4: cp.uint32, 8: cp.uint64}[array.dtype.itemsize])


def _mismatch(report) -> str:
    return f"`{report.first.output}`[{report.first.index}] expected {report.first.expected}, got {report.first.got}"


def _solution_sampler(backend, problem: Problem, sets: list[Prepared], check, timer: Timer, reset):
    """A function that times one sample of `batch` calls over distinct input sets, verifying every call."""
    outputs = _output_views(backend, problem, sets)
    args = [prepared.args(problem) for prepared in sets]
    golden: list[dict] = []
    for k in range(len(sets)):        # first call of each set: untimed, checked against the reference
        reset([k])   # the baseline may have run on these sets before (judge.harness.ahead): its answer must go
        err = backend.call_solve(args[k])
        report = check(k) if err is None else None
        if err is not None or report is not None:
            why = err.message if err is not None else _mismatch(report)
            hint = (" although the calls before it were right: does the solution cache results between calls?"
                    if k else "")
            raise TimedCallFailed(err.verdict if err is not None else "WA",
                                  f"the first call on timing input set {k + 1} went wrong{hint}: {why}")
        golden.append({name: view.copy() for name, view in outputs[k].items()})

    take = _rotation(len(sets))
    cp = backend.cp
    same_bits = SameBits(backend, outputs, golden)
    sorted_golden: dict[tuple[int, str], object] = {}

    def same_values(k: int) -> bool:
        """Set k's outputs hold the values of its first output in some order (sorted bit patterns, on the device)."""
        for name, view in outputs[k].items():
            if (k, name) not in sorted_golden:
                sorted_golden[k, name] = cp.sort(_bit_patterns(cp, golden[k][name]))
            if not bool(cp.array_equal(cp.sort(_bit_patterns(cp, view)), sorted_golden[k, name])):
                return False
        return True

    def verify_changed(k: int) -> None:
        """Set k's outputs differ in some bit from its first call's: still right within the tolerance?"""
        # A custom check runs on the host, seconds at GB sizes: an output whose order alone differs
        # from the checked first one (atomics hand out slots in any order) is taken as that answer.
        if problem.tolerance.policy == "custom" and same_values(k):
            return
        report = check(k)
        if report is not None:
            raise TimedCallFailed(
                "WA", f"a timed call on input set {k + 1} gave a wrong answer although earlier calls were right: "
                f"{_mismatch(report)}. Does the solution cache results between calls, or skip work when "
                f"the output already looks done?")

    def sample(batch: int) -> float:
        ks = take(batch)
        reset(ks)

        def calls():
            for k in ks:
                backend.call_solve_async(args[k])

        try:
            seconds = timer.time(calls, lambda: same_bits.enqueue(ks))
        except Exception as exc:
            if not backend.device_failure(exc):
                raise
            raise TimedCallFailed("RE", f"a timed call failed: {exc}") from None
        err = backend.pending_error()
        if err is not None:
            raise TimedCallFailed(err.verdict, f"a timed call failed: {err.message}")
        for k in same_bits.raised():
            verify_changed(k)
        return seconds / batch

    return sample


def _baseline_sampler(backend, problem: Problem, reference: ModuleType, sets: list[Prepared], check, timer: Timer,
                      reset):
    """Times the problem's baseline like the solution, its outputs reset before every sample outside the timed region."""
    reset([0])
    views = [{**{p.name: backend.device_view(s.buffers[p.name]) for p in problem.params if p.is_pointer},
              **s.data.scalars} for s in sets]
    with timer.stream:
        reference.baseline(**views[0])
    timer.stream.synchronize()
    report = check(0)
    if report is not None:
        raise ValueError(f"the problem's baseline is wrong on its own benchmark: {report.first}")
    take = _rotation(len(sets))

    def sample(batch: int) -> float:
        ks = take(batch)
        reset(ks)

        def calls():
            with timer.stream:
                for k in ks:
                    reference.baseline(**views[k])
        return timer.time(calls) / batch

    return sample


def time_baseline(backend, problem: Problem, reference: ModuleType, cs: CaseSets, timer: Timer) -> Stats:
    sampler = _baseline_sampler(backend, problem, reference, cs.sets, _checker(backend, problem, reference, cs), timer,
                                _resetter(backend, problem, cs))
    return _run_samples(sampler, len(cs.sets))


def _run_samples(sample, distinct: int) -> Stats:
    """Warm up, then time samples until the stopping rule holds. A sample of a call under
    BATCH_BELOW_S is a batch of calls on distinct input sets: never more than `distinct`.
    Warm-up lasts WARMUP_S of wall time: counted in call time, a 10 µs call needed thousands of
    warm-up samples, each with its reset, flush and check (about half of a timed judge's sampling)."""
    warm: list[float] = []
    began = time.perf_counter()
    while len(warm) < WARMUP_CALLS or time.perf_counter() - began < WARMUP_S:
        warm.append(sample(1))
    batch = _batch_for(float(np.median(warm)), distinct)
    seconds: list[float] = []
    while not _enough(seconds, batch):
        seconds.append(sample(batch))
    return Stats.of(seconds)


def _kernel_breakdown(backend, problem: Problem, prepared: Prepared) -> list[KernelTime]:
    """An untimed pass with an event around every launch, grouped by kernel and configuration."""
    launches = backend.profile_call(prepared.args(problem))
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


def measure(backend, problem: Problem, reference: ModuleType, seed: int, emit, ahead=None) -> Timing:
    """`ahead`: what a waiting child prepared for this problem and seed before its job arrived
    (judge.harness.ahead.Ahead): its timer, the copy bandwidth, the cases it made and their baselines'
    timings; the rest are made here."""
    timer = ahead.timer if ahead is not None and ahead.timer is not None else Timer(backend)
    copy_gbps = ahead.copy_gbps if ahead is not None and ahead.copy_gbps else timer.copy_bandwidth_gbps()
    has_baseline = callable(getattr(reference, "baseline", None))
    cases: list[CaseTiming] = []
    per_kernel: list[KernelTime] = []
    for case in benchmark_cases(problem):
        emit("timing_case", case=case.name)
        cs = (ahead.take(case.name) if ahead is not None else None) or prepare_case(
            backend, problem, reference, case, seed, input_set_count(problem, case, copy_gbps))
        sets = cs.sets
        try:
            check, reset = _checker(backend, problem, reference, cs), _resetter(backend, problem, cs)
            sampler = _solution_sampler(backend, problem, sets, check, timer, reset)
            backend.timed_mode(True)
            try:
                stats = _run_samples(sampler, len(sets))
            finally:
                backend.timed_mode(False)
            emit("timing_baseline", case=case.name)
            base = ((ahead.baseline(case.name) if ahead is not None else None) or time_baseline(
                backend, problem, reference, cs, timer)) if has_baseline else None
            if not per_kernel:
                per_kernel = _kernel_breakdown(backend, problem, sets[0])
            scalars = sets[0].data.scalars
        finally:
            cs.release(backend)
        seconds = stats.median_us / 1e6
        bytes_moved = evaluate(problem.benchmark.bytes, scalars)
        flops = evaluate(problem.benchmark.flops, scalars)
        gbps = bytes_moved / seconds / 1e9
        cases.append(CaseTiming(size=case.size, distribution=case.distribution, samples=stats.samples,
                                median_us=stats.median_us, min_us=stats.min_us, iqr_us=stats.iqr_us,
                                noisy=stats.noisy, gbps=gbps, sol_pct=100 * gbps / copy_gbps,
                                gflops=(flops / seconds / 1e9) if flops else None,
                                baseline_us=base.median_us if base else None,
                                ratio_to_baseline=(base.median_us / stats.median_us) if base else None))
    headline = {name: getattr(cases[0], name) for name in TimingFigures.model_fields}
    return Timing(**headline, copy_gbps=copy_gbps, per_kernel=per_kernel, per_case=cases)
