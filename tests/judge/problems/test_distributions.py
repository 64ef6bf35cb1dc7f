import numpy as np
import pytest

from judge.problems import distributions
from judge.problems.distributions import (
    ELEMENT_WISE, FEW_UNIQUE_VALUES, HOTSPOT_SHARE, NAMES, SPECIAL, DistributionError, generate,
)

N = 20_000
DTYPES = ["int32", "uint32", "int64", "uint8", "float32", "float64"]


def _range(dtype):
    if np.dtype(dtype).kind == "u":
        return 0, 200
    return (-50.0, 50.0) if np.dtype(dtype).kind == "f" else (-50, 51)


def _applicable(name, dtype):
    kind = np.dtype(dtype).kind
    if name in SPECIAL or name == "cancellation":
        return kind == "f"
    if name == "alternating-sign":
        return kind != "u"
    return True


CASES = [(n, d) for n in NAMES for d in DTYPES if _applicable(n, d)]


@pytest.mark.parametrize("name,dtype", CASES)
def test_dtype_shape_and_determinism(name, dtype):
    low, high = _range(dtype)
    a = generate(name, np.random.default_rng(7), dtype, N, low, high, specials=True)
    b = generate(name, np.random.default_rng(7), dtype, N, low, high, specials=True)
    c = generate(name, np.random.default_rng(8), dtype, N, low, high, specials=True)
    assert a.dtype == np.dtype(dtype) and a.shape == (N,)
    assert np.array_equal(a, b, equal_nan=True)
    if name not in ("zeros",):
        assert not np.array_equal(a, c, equal_nan=True)


@pytest.mark.parametrize("name,dtype", [c for c in CASES if c[0] not in ("cancellation", "nan", "inf", "denormal")])
def test_values_stay_in_range(name, dtype):
    low, high = _range(dtype)
    x = generate(name, np.random.default_rng(1), dtype, N, low, high).astype(np.float64)
    if name == "zeros":
        assert not x.any()
        return
    assert x.min() >= low and x.max() < high


@pytest.mark.parametrize("name,dtype", [c for c in CASES if c[0] in ELEMENT_WISE])
def test_large_element_wise_arrays_are_drawn_in_chunks_that_keep_the_distribution(name, dtype, monkeypatch):
    monkeypatch.setattr(distributions, "CHUNK_ELEMENTS", 1000)   # 20 chunks of N, as 2^22 are of a large test
    low, high = _range(dtype)
    a = generate(name, np.random.default_rng(7), dtype, N, low, high, specials=True)
    b = generate(name, np.random.default_rng(7), dtype, N, low, high, specials=True)
    assert a.dtype == np.dtype(dtype) and a.shape == (N,) and np.array_equal(a, b, equal_nan=True)
    assert not np.array_equal(a[:1000], a[1000:2000], equal_nan=True)   # each chunk its own stream
    if name in ("nan", "inf", "denormal"):
        return
    assert a.astype(np.float64).min() >= low and a.astype(np.float64).max() < high
    if name == "alternating-sign":   # +, -, +, ... across the chunks' seams
        assert np.all(a[0::2] > 0) and np.all(a[1::2] < 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_defining_properties(dtype):
    low, high = _range(dtype)
    rng = np.random.default_rng(3)
    g = lambda name: generate(name, rng, dtype, N, low, high)  # noqa: E731
    s = g("sorted")
    assert np.all(s[1:] >= s[:-1]) and s[0] < s[-1]
    r = g("reversed")
    assert np.all(r[1:] <= r[:-1]) and r[0] > r[-1]
    assert np.unique(g("all-equal")).size == 1
    assert np.unique(g("few-unique")).size <= FEW_UNIQUE_VALUES
    hot = g("single-hotspot")
    _, counts = np.unique(hot, return_counts=True)
    assert counts.max() / N >= HOTSPOT_SHARE - 0.02
    z = g("zipf")
    values, counts = np.unique(z, return_counts=True)
    assert values[np.argmax(counts)] == z.min()  # the lowest rank is the most frequent
    assert counts.max() / N > 0.25                 # and it is heavily skewed
    u = g("uniform")
    _, ucounts = np.unique(u, return_counts=True)
    assert ucounts.max() / N < 0.1
    if np.dtype(dtype).kind != "u":
        a = g("alternating-sign")
        assert np.all(a[0::2] > 0) and np.all(a[1::2] < 0)
    nrm = g("normal").astype(np.float64)
    mid = (low + high) / 2
    assert abs(np.median(nrm) - mid) < (high - low) * 0.05
    assert np.mean(np.abs(nrm - mid) < (high - low) / 6) > 0.6   # one σ holds about 68%


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cancellation_sums_small_but_terms_large(dtype):
    x = generate("cancellation", np.random.default_rng(5), dtype, N, -1.0, 1.0)
    exact = np.sum(x.astype(np.float64))
    assert np.sum(np.abs(x.astype(np.float64))) > 1000 * abs(exact)
    assert np.abs(x).max() > 1000


@pytest.mark.parametrize("count", [N, N + 1])
def test_cancellation_terms_cancel_in_pairs_and_partial_sums_grow(count):
    x = generate("cancellation", np.random.default_rng(6), "float32", count, -1.0, 1.0).astype(np.float64)
    large = x[np.abs(x) > 1000]   # the large terms are 5000 to 10000 here, the small ones within 1
    positive, negative = np.sort(large[large > 0]), np.sort(-large[large < 0])
    assert positive.size == negative.size == count // 2
    np.testing.assert_allclose(positive, negative, atol=2.0)   # +L and -L, each on a small value
    assert np.abs(np.cumsum(x)).max() > 20 * 10000   # the signs come in a random order, not in adjacent pairs


def test_specials_need_opt_in_and_floats():
    with pytest.raises(DistributionError, match="specials"):
        generate("nan", np.random.default_rng(0), "float32", 10, -1, 1)
    with pytest.raises(DistributionError, match="floating-point"):
        generate("inf", np.random.default_rng(0), "int32", 10, -1, 1, specials=True)
    x = generate("nan", np.random.default_rng(0), "float32", N, -1, 1, specials=True)
    assert 0 < np.isnan(x).sum() < N * 0.05
    y = generate("inf", np.random.default_rng(0), "float32", N, -1, 1, specials=True)
    assert np.isposinf(y).any() and np.isneginf(y).any()
    d = generate("denormal", np.random.default_rng(0), "float32", N, -1, 1, specials=True)
    assert np.all(np.abs(d) < np.finfo(np.float32).smallest_normal) and np.all(d != 0)


def test_bad_requests_are_explained():
    with pytest.raises(DistributionError, match="unknown distribution 'gaussian'"):
        generate("gaussian", np.random.default_rng(0), "float32", 10, -1, 1)
    with pytest.raises(DistributionError, match="does not fit uint8"):
        generate("uniform", np.random.default_rng(0), "uint8", 10, 0, 300)
    with pytest.raises(DistributionError, match="alternating-sign"):
        generate("alternating-sign", np.random.default_rng(0), "int32", 10, 0, 10)
    with pytest.raises(DistributionError, match="empty range"):
        generate("uniform", np.random.default_rng(0), "int32", 10, 5, 5)
