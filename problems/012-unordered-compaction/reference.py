"""Unordered stream compaction: the elements of input that are > 0, in any order, in
output[0 .. count-1], and count[0] = how many there are. output past count is not checked."""
import numpy as np

from judge.problems.api import CheckReport, Mismatch, generate

LOW, HIGH = -100.0, 100.0


def compaction_input(rng, distribution, *, n, **_):
    size = int(n)
    if distribution == "all-equal":            # one positive value: every element is kept
        return np.full(size, np.float32(rng.uniform(0.5, HIGH)), dtype=np.float32)
    a = generate(distribution, rng, np.float32, size, LOW, HIGH)
    if distribution in ("uniform", "normal") and size >= 16:
        # A few exact zeros of both signs: 0.0 and -0.0 are not > 0 and must be dropped.
        where = rng.integers(0, size, max(2, size // 64))
        a[where] = np.where(rng.random(where.size) < 0.5, np.float32(0.0), np.float32(-0.0))
    return a


def reference(*, input, n, **_):
    kept = input[:n][input[:n] > 0]
    output = np.zeros(n, dtype=np.float32)     # the stable order: one of the accepted answers
    output[: kept.size] = kept
    return {"output": output, "count": np.array([kept.size], dtype=np.int32)}


def check(got, expected, *, input, n, **_):
    """count[0] exact; then output[0 .. count-1] must be the kept values as a multiset.

    The first mismatch reported is the first slot of output[0 .. count-1] holding a value that is
    not kept (or one copy too many of a kept value), together with a kept value that is missing.
    """
    want_count = int(expected["count"][0])
    got_count = int(got["count"][0])
    if got_count != want_count:
        return CheckReport(1, 1, Mismatch(output="count", index=0, expected=str(want_count),
                                          got=str(got_count), count=1, total=1))
    mine = got["output"][:want_count]
    # The common case in one sort each: the kept values in some order. (NaN never compares equal,
    # so a never-written slot falls through to the slot-by-slot search below.)
    if np.array_equal(np.sort(mine), np.sort(expected["output"][:want_count])):
        return CheckReport(0, want_count, None)
    kept = input[:n][input[:n] > 0]
    values, copies = np.unique(kept, return_counts=True)

    # For every slot: is it one copy too many of its value? (NaN, never written, always is.)
    order = np.argsort(mine, kind="stable")
    s = mine[order]
    same = np.zeros(s.size, dtype=bool)
    same[1:] = (s[1:] == s[:-1]) | (np.isnan(s[1:]) & np.isnan(s[:-1]))
    group_start = np.maximum.accumulate(np.where(same, 0, np.arange(s.size)))
    copy_number = np.arange(s.size) - group_start          # 0 for the first copy of a value
    at = np.minimum(np.searchsorted(values, s), max(values.size - 1, 0))
    allowed = np.where((values.size > 0) & (values[at] == s), copies[at] if values.size else 0, 0)
    excess = np.zeros(mine.size, dtype=bool)
    excess[order] = copy_number >= allowed
    wrong = int(np.count_nonzero(excess))
    if not wrong:
        return CheckReport(0, want_count, None)

    have = np.searchsorted(s, values, side="right") - np.searchsorted(s, values, side="left")
    missing = values[np.argmax(have < copies)]
    j = int(np.argmax(excess))
    return CheckReport(wrong, want_count, Mismatch(
        output="output (first count elements)", index=j,
        expected=f"one of the kept values ({str(missing)} is missing)", got=str(mine[j]),
        count=wrong, total=want_count))


def baseline(*, input, output, count, n, **_):
    import cupy

    kept = input[input > 0]
    output[: kept.size] = kept
    count[0] = kept.size
