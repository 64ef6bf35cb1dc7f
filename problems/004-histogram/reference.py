"""Histogram: histogram[b] = number of i with input[i] == b, for 0 <= b < num_bins.

Keys outside [0, num_bins) are ignored. The keys come from histogram_keys() below, which mixes
a few out-of-range keys (negative ones and ones >= num_bins) into every distribution.
"""
import numpy as np

# Out-of-range keys stay within 1000 elements of either end of the histogram, so a solution
# that forgets the range check writes into the judge's guard bytes instead of somewhere random.
_OUT_OF_RANGE_SPAN = 1000


_ZIPF_TABLE = 1 << 20


def _zipf_table(bins):
    """Maps a uniform draw from [0, 2^20) to a bin with P(k) ~ 1 / (k + 1)^1.2 (inverse CDF)."""
    cdf = np.cumsum(1.0 / np.arange(1, bins + 1, dtype=np.float64) ** 1.2)
    cdf /= cdf[-1]
    u = (np.arange(_ZIPF_TABLE, dtype=np.float64) + 0.5) / _ZIPF_TABLE
    return np.minimum(np.searchsorted(cdf, u, side="right"), bins - 1).astype(np.int32)


def histogram_keys(rng, distribution, *, N, num_bins, **_):
    n, bins = int(N), int(num_bins)
    if distribution == "uniform":
        keys = rng.integers(0, bins, n, dtype=np.int32)
    elif distribution == "single-hotspot":            # ~90% of the keys hit one bin
        keys = rng.integers(0, bins, n, dtype=np.int32)
        keys[rng.random(n, dtype=np.float32) < 0.9] = rng.integers(0, bins)
    elif distribution == "zipf":                       # P(key = k) ~ 1 / (k + 1)^1.2
        keys = _zipf_table(bins)[rng.integers(0, _ZIPF_TABLE, n, dtype=np.int32)]
    elif distribution == "all-equal":
        keys = np.full(n, rng.integers(0, bins), dtype=np.int32)
    elif distribution == "few-unique":                 # at most 8 distinct bins
        values = rng.choice(bins, size=min(bins, 8), replace=False).astype(np.int32)
        keys = values[rng.integers(0, len(values), n)]
    else:
        raise ValueError(f"histogram_keys: unknown distribution {distribution!r}")

    if n >= 8:                                         # ~3% out of range, both sides
        where = rng.integers(0, n, max(2, n // 32))
        high = rng.random(where.size) < 0.5
        keys[where] = np.where(high, rng.integers(bins, bins + _OUT_OF_RANGE_SPAN, where.size),
                               rng.integers(-_OUT_OF_RANGE_SPAN, 0, where.size))
        first = int(rng.integers(0, n))                # at two distinct places: the first key
        second = (first + 1 + int(rng.integers(0, n - 1))) % n
        keys[first] = bins                             # past the end, and the first one
        keys[second] = -1                              # before the start
    return keys


def reference(*, input, N, num_bins, **_):
    keys = input[:N]
    keys = keys[(keys >= 0) & (keys < num_bins)]
    return {"histogram": np.bincount(keys, minlength=num_bins).astype(np.int32)}


def baseline(*, input, histogram, N, num_bins, **_):
    import cupy

    # Bin edges at k - 0.5 make bin k exactly the key k (CuPy dispatches this to CUB's
    # DeviceHistogram when it can). The last bin is closed on the right, so one extra bin takes
    # the key num_bins, which would otherwise be counted in bin num_bins - 1.
    edges = cupy.arange(num_bins + 2, dtype=cupy.float64) - 0.5
    counts, _ = cupy.histogram(input[:N], bins=edges)
    histogram[...] = counts[:num_bins]
