import numpy as np
import pytest

from judge.problems.api import SumBound
from judge.problems.distributions import generate
from judge.problems.model import Tolerance
from judge.problems import tolerances
from judge.problems.tolerances import check_output

EXACT, MULTISET = Tolerance(policy="exact"), Tolerance(policy="multiset")


def test_exact_reports_first_mismatch_and_count():
    expected = np.arange(10, dtype=np.int32)
    got = expected.copy()
    got[[3, 7]] = -1
    r = check_output(EXACT, "output", got, expected)
    assert not r.ok and r.mismatches == 2 and r.total == 10
    assert (r.first.index, r.first.expected, r.first.got, r.first.output) == (3, "3", "-1", "output")
    # the elements around it, side by side: from index 0 (3 - 5 clipped) to 8 (3 + 5)
    assert r.first.window_start == 0
    assert r.first.expected_window == [str(i) for i in range(9)]
    assert r.first.got_window == ["0", "1", "2", "-1", "4", "5", "6", "-1", "8"]


def test_exact_passes_identical_and_treats_signed_zero_equal():
    x = np.array([0.0, -0.0, 1.5], np.float32)
    assert check_output(EXACT, "y", x, np.array([-0.0, 0.0, 1.5])).ok


def _large_cases():
    """(policy, expected) pairs of 6400 elements: 100 chunks when a chunk is 64, as 2^22 are of a large output."""
    x = generate("uniform", np.random.default_rng(2), "float32", 6400, -1.0, 1.0)
    x[[3, 300]] = 0.0
    x[[10, 4000]] = np.nan
    value = np.nan_to_num(x.astype(np.float64))
    return [(EXACT, x), (Tolerance(policy="ulp", ulp=2), x),
            (Tolerance(policy="sum_bound", c=1), SumBound(value, np.abs(value) + 1, 4))]


@pytest.mark.parametrize("case", range(3), ids=["exact", "ulp", "sum_bound"])
def test_a_large_output_checked_in_chunks_gets_the_whole_checks_report(case, monkeypatch):
    def both(got):
        monkeypatch.setattr(tolerances, "CHECK_CHUNK_ELEMENTS", 64)
        chunked = check_output(policy, "y", got, expected)
        monkeypatch.setattr(tolerances, "CHECK_CHUNK_ELEMENTS", 1 << 40)
        return chunked, check_output(policy, "y", got, expected)

    policy, expected = _large_cases()[case]
    got = (expected.value if isinstance(expected, SumBound) else expected).astype(np.float32)
    got[[3, 300]] = -0.0   # equal by value, not by bits
    chunked, whole = both(got)
    assert chunked.ok and whole.ok
    got[[5000, 6399]] = 7.0
    chunked, whole = both(got)
    assert (chunked.mismatches, chunked.first.index, chunked.first.got) == (whole.mismatches, 5000, "7.0") == (2, 5000, "7.0")


def test_all_zeros_output_fails():
    expected = generate("uniform", np.random.default_rng(1), "float32", 1000, 0.5, 1.0)
    r = check_output(EXACT, "y", np.zeros(1000, np.float32), expected)
    assert r.mismatches == 1000
    sb = SumBound(np.array([expected.sum(dtype=np.float64)]), np.array([np.abs(expected).sum(dtype=np.float64)]), 1000)
    assert not check_output(Tolerance(policy="sum_bound", c=2), "y", np.zeros(1, np.float32), sb).ok


@pytest.mark.parametrize("policy", [Tolerance(policy="exact"), Tolerance(policy="ulp", ulp=4)])
def test_nan_never_matches_a_number_but_matches_nan(policy):
    expected = np.array([1.0, np.nan], np.float32)
    assert not check_output(policy, "y", np.array([np.nan, np.nan], np.float32), expected).ok
    assert check_output(policy, "y", np.array([1.0, np.nan], np.float32), expected).ok
    r = check_output(policy, "y", np.array([1.0, 2.0], np.float32), expected)
    assert r.mismatches == 1 and r.first.index == 1 and r.first.expected == "nan"


def test_ulp_distance():
    one = np.float32(1.0)
    near = np.array([np.nextafter(np.nextafter(one, np.float32(2)), np.float32(2))], np.float32)  # 2 ulps up
    assert check_output(Tolerance(policy="ulp", ulp=2), "y", near, np.array([1.0], np.float32)).ok
    assert not check_output(Tolerance(policy="ulp", ulp=1), "y", near, np.array([1.0], np.float32)).ok
    # across zero: -tiny and +tiny are 2 ulps apart
    tiny = np.finfo(np.float32).smallest_subnormal
    assert check_output(Tolerance(policy="ulp", ulp=2), "y", np.array([-tiny], np.float32), np.array([tiny], np.float32)).ok
    assert not check_output(Tolerance(policy="ulp", ulp=1000), "y", np.array([np.inf], np.float32), np.array([3e38], np.float32)).ok


def _sum_ref(x):
    x64 = x.astype(np.float64)
    return SumBound(np.array([x64.sum()]), np.array([np.abs(x64).sum()]), x.size)


def test_sum_bound_on_cancellation_input():
    x = generate("cancellation", np.random.default_rng(2), "float32", 1 << 16, -1.0, 1.0)
    ref = _sum_ref(x)
    policy = Tolerance(policy="sum_bound", c=2)
    # A pairwise float32 sum (what a tree reduction does) is within the bound ...
    pairwise = np.array([np.sum(x, dtype=np.float32)], np.float32)
    assert check_output(policy, "output", pairwise, ref).ok
    # ... a result off by more than the bound is not, although it is "close" relative to Σ|x| scale.
    bound = 2 * np.sqrt(x.size) * 2.0**-24 * ref.abs_terms[0]
    wrong = np.array([ref.value[0] + 3 * bound], np.float32)
    assert not check_output(policy, "output", wrong, ref).ok
    # NaN fails the bound comparison.
    assert not check_output(policy, "output", np.array([np.nan], np.float32), ref).ok


def test_sum_bound_per_element_for_scans():
    x = generate("uniform", np.random.default_rng(4), "float32", 5000, -1, 1)
    x64 = x.astype(np.float64)
    ref = SumBound(np.cumsum(x64), np.cumsum(np.abs(x64)), np.arange(1, 5001))
    got = np.cumsum(x, dtype=np.float32)  # sequential float32 scan
    assert check_output(Tolerance(policy="sum_bound", c=2), "out", got, ref).ok
    got[4000] += 1.0
    r = check_output(Tolerance(policy="sum_bound", c=2), "out", got, ref)
    assert r.mismatches == 1 and r.first.index == 4000


def test_multiset_ignores_order_but_not_multiplicity():
    expected = np.array([3, 1, 2, 2], np.int32)
    assert check_output(MULTISET, "out", np.array([2, 3, 2, 1], np.int32), expected).ok
    r = check_output(MULTISET, "out", np.array([2, 3, 1, 1], np.int32), expected)
    assert not r.ok and "sorted" in r.first.output


def test_reference_shape_mismatch_is_an_error():
    with pytest.raises(ValueError, match="reference returned"):
        check_output(EXACT, "out", np.zeros(3, np.int32), np.zeros(4, np.int32))


def _device_cases():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(4096).astype(np.float32)
    nan_x = x.copy()
    nan_x[[5, 9]] = np.nan
    off = x.copy()
    off[[17, 4000]] += 1e-3
    scan = np.cumsum(x, dtype=np.float64)
    bound = SumBound(scan, np.cumsum(np.abs(x), dtype=np.float64), np.arange(1, x.size + 1))
    return [
        (EXACT, x, x.copy()), (EXACT, off, x), (EXACT, nan_x, nan_x.copy()), (EXACT, nan_x, x),
        (Tolerance(policy="ulp", ulp=4), np.nextafter(x, np.inf), x), (Tolerance(policy="ulp", ulp=4), off, x),
        (Tolerance(policy="sum_bound", c=2), scan.astype(np.float32), bound),
        (Tolerance(policy="sum_bound", c=2), off, bound),
        (MULTISET, rng.permutation(np.arange(100, dtype=np.int32)), np.arange(100, dtype=np.int32)),
        (MULTISET, np.zeros(100, np.int32), np.arange(100, dtype=np.int32)),
    ]


@pytest.mark.gpu
@pytest.mark.parametrize("case", range(10))
def test_checks_on_the_device_report_what_the_host_reports(case):
    cp = pytest.importorskip("cupy")
    tolerance, got, expected = _device_cases()[case]
    on_device = (SumBound(cp.asarray(expected.value), cp.asarray(expected.abs_terms), cp.asarray(expected.n_terms))
                 if isinstance(expected, SumBound) else cp.asarray(expected))
    host = check_output(tolerance, "y", got, expected)
    device = check_output(tolerance, "y", cp.asarray(got), on_device)
    assert (device.mismatches, device.total, device.first) == (host.mismatches, host.total, host.first)
