"""Segmented exclusive scan.

flags[i] != 0 starts a new segment at i (element 0 always starts one). output[i] is the sum of
input over the elements of i's segment that come before i; it is 0 at every segment head.
"""
import numpy as np


def segment_values(rng, distribution, *, n, **_):
    # The values are the same kind of data for every test; the distribution shapes the flags.
    return rng.integers(-16, 17, int(n), dtype=np.int32)


def _heads_from_lengths(rng, n, draw):
    """Flags with a head after every segment length that draw(rng, count) makes, up to n."""
    flags = np.zeros(n, np.int32)
    position, count = 0, 1024
    while True:
        starts = position + np.cumsum(draw(rng, count))   # the next segments start here
        flags[starts[starts < n]] = 1
        if starts[-1] >= n:
            return flags
        position, count = int(starts[-1]), count * 2


def segment_heads(rng, distribution, *, n, **_):
    n = int(n)
    if distribution == "uniform":            # inside a tile and across tile boundaries
        flags = _heads_from_lengths(rng, n, lambda r, k: r.integers(1, 4097, k))
    elif distribution == "few-unique":       # short segments: 1, 2 or 3 elements
        flags = _heads_from_lengths(rng, n, lambda r, k: r.integers(1, 4, k))
    elif distribution == "zipf":             # mostly short, a few very long ones
        flags = _heads_from_lengths(rng, n, lambda r, k: np.minimum(r.zipf(1.8, k), 1 << 20))
    elif distribution == "single-hotspot":   # every segment longer than a 1024-element tile
        flags = _heads_from_lengths(rng, n, lambda r, k: r.integers(1025, 20001, k))
    elif distribution == "zeros":            # one segment: a plain exclusive scan
        return np.zeros(n, np.int32)
    elif distribution == "all-equal":        # every element is its own segment
        return np.ones(n, np.int32)
    else:
        raise ValueError(f"segment_heads: unknown distribution {distribution!r}")
    flags[0] = rng.integers(0, 2)            # element 0 is a head whatever its flag says
    return flags


def reference(*, input, flags, n, **_):
    # |any partial sum| <= 16 * 10^8 < 2^31: int32 arithmetic is exact here.
    # output = cumsum(y) with y[i] = input[i-1], except that at every head y also takes away the
    # whole previous segment, so the running sum restarts at 0 there.
    heads = flags[:n] != 0
    heads[0] = True
    exclusive = np.empty(n, np.int32)
    exclusive[0] = 0
    np.cumsum(input[: n - 1], dtype=np.int32, out=exclusive[1:])
    before_head = exclusive[heads]                     # the plain exclusive scan at each head
    y = exclusive                                      # reuse the buffer: y[i] = input[i - 1]
    y[0] = 0
    y[1:] = input[: n - 1]
    y[heads] -= np.diff(before_head, prepend=np.int32(0))   # minus the previous segment's sum
    np.cumsum(y, dtype=np.int32, out=y)
    return {"output": y}


def baseline(*, input, flags, output, n, **_):
    import cupy

    heads = flags != 0
    heads[0] = True
    exclusive = cupy.cumsum(input, dtype=cupy.int32) - input
    segment = cupy.cumsum(heads, dtype=cupy.int32) - 1
    output[...] = exclusive - exclusive[heads][segment]
