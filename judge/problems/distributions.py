"""Named, seeded, vectorized input distributions.

Every generator draws `count` values of `dtype` from the half-open range [low, high) (except
`cancellation`, whose large terms deliberately leave it, and the specials). The same seed always
gives the same array.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from judge.pieces import each_piece

# Values that only make sense where a problem defines what they mean (Problem.specials).
SPECIAL = ("nan", "inf", "denormal")

HOTSPOT_SHARE = 0.9        # single-hotspot: this share of elements is the hot value
FEW_UNIQUE_VALUES = 4
ZIPF_EXPONENT = 1.5        # P(rank k) falls like k^-1.5: rank 1 alone holds ~29% of the mass
ZIPF_FLOAT_LEVELS = 1024   # float ranges are cut into this many ranks
CANCELLATION_SCALE = 1e4   # large terms are this many times the range's magnitude
SPECIAL_SHARE = 0.01       # nan / inf: share of special values among uniform ones
CHUNK_ELEMENTS = 1 << 22   # an element-wise distribution's larger array is drawn in chunks this long, on threads


class DistributionError(ValueError):
    pass


def _is_float(dtype: np.dtype) -> bool:
    return np.issubdtype(dtype, np.floating)


def _work_dtype(dtype: np.dtype) -> type:
    """The precision values are drawn in: float32 for float16/float32 targets (drawing float64 and
    rounding is ten times slower at benchmark sizes), float64 otherwise."""
    return np.float32 if dtype.itemsize <= 4 else np.float64


def _in_range(x: np.ndarray, dtype, low, high) -> np.ndarray:
    """Clamp into [low, high) in the target dtype without rounding onto the excluded upper bound."""
    x = x.astype(dtype, copy=False)
    top = np.nextafter(dtype.type(high), dtype.type(-np.inf))
    bottom = dtype.type(low)
    if bottom < low:
        bottom = np.nextafter(bottom, dtype.type(np.inf))
    np.minimum(x, top, out=x)
    return np.maximum(x, bottom, out=x)


def _uniform(rng, dtype, count, low, high) -> np.ndarray:
    if _is_float(dtype):
        work = _work_dtype(dtype)
        x = rng.random(count, dtype=work)
        x *= work(high - low)
        x += work(low)
        return _in_range(x, dtype, low, high)
    return rng.integers(int(low), int(high), count, dtype=dtype)


def _chance(rng, count) -> np.ndarray:
    """Uniform [0, 1) draws for deciding which elements a distribution changes."""
    return rng.random(count, dtype=np.float32)


def _normal(rng, dtype, count, low, high):
    mid, sd = (low + high) / 2, (high - low) / 6
    work = _work_dtype(dtype) if _is_float(dtype) else np.float64
    x = rng.standard_normal(count, dtype=work)
    x *= work(sd)
    x += work(mid)
    if _is_float(dtype):
        return _in_range(x, dtype, low, high)
    return np.clip(np.rint(x), low, high - 1).astype(dtype)


def _zeros(rng, dtype, count, low, high):
    return np.zeros(count, dtype)


def _all_equal(rng, dtype, count, low, high):
    return np.full(count, _uniform(rng, dtype, 1, low, high)[0], dtype)


def _sorted(rng, dtype, count, low, high):
    return np.sort(_uniform(rng, dtype, count, low, high))


def _reversed(rng, dtype, count, low, high):
    return _sorted(rng, dtype, count, low, high)[::-1].copy()


def _few_unique(rng, dtype, count, low, high):
    values = _uniform(rng, dtype, FEW_UNIQUE_VALUES, low, high)
    return values[rng.integers(0, FEW_UNIQUE_VALUES, count, dtype=np.uint8)]


def _single_hotspot(rng, dtype, count, low, high):
    x = _uniform(rng, dtype, count, low, high)
    hot = _uniform(rng, dtype, 1, low, high)[0]
    x[_chance(rng, count) < HOTSPOT_SHARE] = hot
    return x


def _zipf(rng, dtype, count, low, high):
    # Power-law ranks by inversion, O(1) per element (NumPy's rejection sampler is 6x slower):
    # rank = floor(u^(-1/(s-1))) for u in (0, 1] gives P(rank >= k) = k^-(s-1), so P(rank = k) falls
    # like k^-s and rank 1 holds 1 - 2^-(s-1) of the mass (29% at s = 1.5). Rank 1 is the lowest
    # value; ranks wrap around the range so every value stays inside it.
    u = rng.random(count)
    np.subtract(1.0, u, out=u)
    ranks = np.power(u, -1.0 / (ZIPF_EXPONENT - 1.0), out=u)
    np.floor(ranks, out=ranks)
    ranks -= 1.0
    if _is_float(dtype):
        levels = np.fmod(ranks, ZIPF_FLOAT_LEVELS, out=ranks)
        levels *= (high - low) / ZIPF_FLOAT_LEVELS
        levels += low
        return _in_range(levels, dtype, low, high)
    span = int(high) - int(low)
    values = np.fmod(ranks, span, out=ranks).astype(np.uint64)
    values += np.uint64(int(low) % (1 << 64))   # modulo 2^64: low + rank lies in [low, high), so this is exact
    return (values.view(np.int64) if np.dtype(dtype).kind == "i" else values).astype(dtype)


def _alternating_sign(rng, dtype, count, low, high):
    if not (low < 0 < high):
        raise DistributionError(f"alternating-sign needs a range holding negative and positive values, not [{low}, {high})")
    top = min(-low, high)
    if _is_float(dtype):   # magnitudes in [top/100, top), drawn in the target's precision
        x = _uniform(rng, dtype, count, top / 100, top)
    else:                  # magnitudes in [1, top], and never past high - 1
        biggest = max(min(int(top), int(high) - 1), 1)
        x = rng.integers(1, biggest + 1, count, dtype=dtype)
    odd = x[1::2]
    np.negative(odd, out=odd)   # +, -, +, ... starting at index 0
    return x


def _cancellation(rng, dtype, count, low, high):
    # Pairs of large terms +L, -L on top of small in-range values, their signs in a random order:
    # the exact sum is small while Σ|terms| and the partial sums are huge, which punishes naive
    # accumulation. The k-th positive and the k-th negative term share a magnitude, so no
    # permutation of all positions is needed (2^25 float32 elements: 0.8 s instead of 3.9 s).
    if not _is_float(dtype):
        raise DistributionError("cancellation is defined for floating-point inputs only")
    x = _uniform(rng, dtype, count, low, high)
    pairs = count // 2
    if not pairs:
        return x
    scale = CANCELLATION_SCALE * max(abs(low), abs(high), 1.0)
    # Drawn in the dtype, so that +L and -L cancel exactly in it.
    magnitudes = _uniform(rng, dtype, pairs, scale / 2, scale)
    plus = _chance(rng, count) < 0.5
    excess = int(np.count_nonzero(plus)) - pairs      # exactly `pairs` positive terms
    if excess:
        pool = np.flatnonzero(plus if excess > 0 else ~plus)
        plus[rng.choice(pool, abs(excess), replace=False)] = excess < 0
    positive, negative = np.flatnonzero(plus), np.flatnonzero(~plus)
    if count % 2:   # one element of an odd count keeps its small value alone
        negative = np.delete(negative, rng.integers(negative.size))
    x[positive] += magnitudes
    x[negative] -= magnitudes
    return x


def _nan(rng, dtype, count, low, high):
    x = _uniform(rng, dtype, count, low, high)
    x[_chance(rng, count) < SPECIAL_SHARE] = np.nan
    return x


def _inf(rng, dtype, count, low, high):
    x = _uniform(rng, dtype, count, low, high)
    hit = _chance(rng, count) < SPECIAL_SHARE
    x[hit] = np.where(rng.random(int(hit.sum())) < 0.5, np.inf, -np.inf)
    return x


def _denormal(rng, dtype, count, low, high):
    info = np.finfo(dtype)
    tiny = float(info.smallest_normal)
    x = rng.uniform(-tiny, tiny, count).astype(dtype)
    x[x == 0] = info.smallest_subnormal
    return x


GENERATORS: dict[str, Callable[..., np.ndarray]] = {
    "uniform": _uniform,
    "normal": _normal,
    "zeros": _zeros,
    "all-equal": _all_equal,
    "sorted": _sorted,
    "reversed": _reversed,
    "few-unique": _few_unique,
    "single-hotspot": _single_hotspot,
    "zipf": _zipf,
    "alternating-sign": _alternating_sign,
    "cancellation": _cancellation,
    "nan": _nan,
    "inf": _inf,
    "denormal": _denormal,
}

NAMES = tuple(GENERATORS)
# Each element drawn on its own (chunks of an even length keep alternating-sign's pattern).
ELEMENT_WISE = frozenset({"uniform", "normal", "zipf", "alternating-sign", "nan", "inf", "denormal"})


def _in_chunks(make: Callable[..., np.ndarray], rng: np.random.Generator, dtype, count: int, low, high) -> np.ndarray:
    """An element-wise distribution's `count` values drawn CHUNK_ELEMENTS at a time on threads, each chunk
    by a generator spawned from `rng` for it: the same seed gives the same array whatever the number of
    threads."""
    out = np.empty(count, dtype)

    def draw(chunk: tuple[int, int], chunk_rng: np.random.Generator) -> None:
        start, n = chunk
        out[start:start + n] = make(chunk_rng, dtype, n, low, high)

    each_piece(draw, count, CHUNK_ELEMENTS, rng.spawn(-(-count // CHUNK_ELEMENTS)))
    return out


def default_range(dtype: np.dtype) -> tuple[float, float]:
    """The range used when a parameter gives none: small values that keep sums exact-ish."""
    dtype = np.dtype(dtype)
    if _is_float(dtype):
        return -1.0, 1.0
    info = np.iinfo(dtype)
    return (max(info.min, -100), min(info.max, 100) + 1)


def generate(name: str, rng: np.random.Generator, dtype, count: int, low: float, high: float,
             *, specials: bool = False) -> np.ndarray:
    dtype = np.dtype(dtype)
    if name not in GENERATORS:
        raise DistributionError(f"unknown distribution {name!r}; known: {', '.join(NAMES)}")
    if name in SPECIAL:
        if not specials:
            raise DistributionError(f"distribution {name!r} needs the problem to set specials = true "
                                    f"and define what NaN/Inf/denormal inputs mean")
        if not _is_float(dtype):
            raise DistributionError(f"distribution {name!r} is defined for floating-point inputs only")
    if count < 0:
        raise DistributionError(f"element count must be ≥ 0, got {count}")
    if not low < high:
        raise DistributionError(f"empty range [{low}, {high})")
    if not _is_float(dtype):
        info = np.iinfo(dtype)
        if low < info.min or high > info.max + 1:
            raise DistributionError(f"range [{low}, {high}) does not fit {dtype.name}")
    make = GENERATORS[name]
    if name in ELEMENT_WISE and count > CHUNK_ELEMENTS:
        out = _in_chunks(make, rng, dtype, int(count), low, high)
    else:
        out = make(rng, dtype, int(count), low, high)
    assert out.dtype == dtype and out.shape == (count,), (name, out.dtype, out.shape)
    return out
