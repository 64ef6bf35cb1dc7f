"""Samples, the stopping rule, and how many calls and input sets a benchmark case needs."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

INPUT_SETS = 4                 # rotation over at least this many input sets,
DISTINCT_SETS = 2              # of which at least this many hold data of their own (distinct_set_count)
WARMUP_CALLS, WARMUP_S = 3, 0.025
MIN_SAMPLES, MIN_TOTAL_S = 10, 0.1
MAX_SAMPLES, MAX_TOTAL_S = 500, 2.0
TARGET_SEM = 0.005             # stop once the standard error of the mean is ≤ 0.5% of the median
NOISY_SPREAD = 0.05            # IQR / median above this flags the case as noisy
BATCH_BELOW_S = 20e-6          # cases whose bytes move faster than this are timed in batches of distinct inputs,
BATCH_SAMPLE_S = 250e-6        # of enough calls to last this long: the event pair's own cost, a few µs,
                               # then stays about 1% of a sample whatever the batch
MAX_BATCH = 64                 # and so at most this many input sets


@dataclass
class Stats:
    samples: int
    median_us: float
    min_us: float
    iqr_us: float
    noisy: bool
    calls_per_sample: int = 1             # > 1: a batch's throughput, calls on distinct inputs back to back
    single_call_us: float | None = None   # a call alone between its own events

    @classmethod
    def of(cls, seconds: list[float], calls_per_sample: int = 1, warmup: list[float] = ()) -> "Stats":
        """`seconds`: the timed samples' per-call times; `warmup`: the single calls of the warm-up, whose
        median after the first WARMUP_CALLS is the single-call figure of a batched case."""
        us = np.asarray(seconds) * 1e6
        q1, med, q3 = np.percentile(us, [25, 50, 75])
        warm = list(warmup)[WARMUP_CALLS:] or list(warmup)
        single = float(med) if calls_per_sample == 1 else float(np.median(warm)) * 1e6 if warm else None
        return cls(len(us), float(med), float(us.min()), float(q3 - q1), bool((q3 - q1) / med > NOISY_SPREAD),
                   calls_per_sample, single)


# The half-width of a median's interval is MEDIAN_NOTCH * IQR / sqrt(samples): the notch of a box plot
# (McGill, Tukey and Larsen, 1978); two medians whose intervals do not overlap differ at about 95%.
MEDIAN_NOTCH = 1.57


def median_interval(median: float, iqr: float, samples: int) -> tuple[float, float]:
    """The interval around a case's median inside which another median is not told apart from it."""
    half = MEDIAN_NOTCH * iqr / math.sqrt(max(samples, 1))
    return median - half, median + half


def enough(seconds: list[float], batch: int) -> bool:
    """`seconds`: the per-call time of each sample so far, samples of `batch` calls."""
    total = sum(seconds) * batch
    if len(seconds) >= MAX_SAMPLES or total >= MAX_TOTAL_S:
        return True
    if len(seconds) < MIN_SAMPLES or total < MIN_TOTAL_S:
        return False
    sem = float(np.std(seconds, ddof=1)) / math.sqrt(len(seconds))
    return sem <= TARGET_SEM * float(np.median(seconds))


def batched_case(expected_call_s: float) -> bool:
    """Whether a case's calls are timed back to back in batches: its bytes move in under BATCH_BELOW_S at
    the device's copy bandwidth (`expected_call_s`). Decided by the case, never by a subject's own warm-up,
    so that the solution, the baseline and every submission of a leaderboard are timed by one method."""
    return expected_call_s < BATCH_BELOW_S


def batch_for(call_s: float, distinct: int, batched: bool) -> int:
    """Calls per sample: 1 in a case not batched, else enough to last BATCH_SAMPLE_S (at least 2: a
    throughput, whatever the subject's speed) on distinct sets."""
    if not batched:
        return 1
    return min(MAX_BATCH, distinct, max(2, math.ceil(BATCH_SAMPLE_S / max(call_s, 1e-9))))


def input_set_count(expected_call_s: float) -> int:
    """How many input sets a case rotates over: INPUT_SETS, or, for a batched case, one per call of a
    batch, so that no call of a batch finds its output already written, or its input left in L2, by
    an earlier call on the same set."""
    return max(INPUT_SETS, batch_for(expected_call_s, MAX_BATCH, batched_case(expected_call_s)))


def distinct_set_count(expected_call_s: float) -> int:
    """How many of a case's input sets hold data of their own: each of a batched case's; DISTINCT_SETS of
    a case timed call by call, whose other sets are copies of those at addresses of their own. Such a call
    moves at least BATCH_BELOW_S of the device's bytes (160 MB at 8 TB/s) after an L2 flush, so no set's
    content is in cache whatever the rotation, and two contents are enough for a call whose answer depends
    on anything but its input (a cache keyed on the size, the previous call's output) to fail on one.
    Distinct data would cost the oracle seconds per set (making, the reference, digests) and the runner
    as many uploads."""
    return input_set_count(expected_call_s) if batched_case(expected_call_s) else DISTINCT_SETS


def run_samples(sample, distinct: int, batched: bool) -> Stats:
    """Warm up, then time samples until the stopping rule holds. `sample(batch, warmup)` gives one
    sample's per-call seconds; `batched`: the case's (batched_case). Warm-up lasts WARMUP_S of wall time
    (counted in call time, a 10 µs call needed thousands of warm-up samples)."""
    warm: list[float] = []
    began = time.perf_counter()
    while len(warm) < WARMUP_CALLS or time.perf_counter() - began < WARMUP_S:
        warm.append(sample(1, True))
    batch = batch_for(float(np.median(warm)), distinct, batched)
    seconds: list[float] = []
    while not enough(seconds, batch):
        seconds.append(sample(batch, False))
    return Stats.of(seconds, batch, warm)
