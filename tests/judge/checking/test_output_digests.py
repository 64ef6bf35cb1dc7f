"""Large tests of an exact-policy problem are checked by digests of the outputs on the device
(judge/output_digest.py). Where the digests do not stand for the expected bytes (a wrong output, or a
runner that gives none, as the CPU backend's), the outputs are copied back and checked element by
element, so the verdict and its message are those of the full check."""
from __future__ import annotations

import pytest

from judge.checking import run as run_module
from judge.checking import tests as tests_module
from judge.checking.data import CaseData
from judge.problems.loader import load_problem
from judge.protocol import OutputDigest
from judge.result import Verdict
from judge.submission import judge_source

PROBLEM = load_problem(83)   # exclusive prefix sum of int32: exact policy
ACCEPTED = (PROBLEM.folder / "solutions" / "accepted" / "three_pass_scan.cu").read_text()


def last_element_spoiled_from(n_min: int) -> str:
    """The accepted scan, with the last output element's low bit flipped when n >= n_min."""
    return ACCEPTED.replace('extern "C" void solve(', 'static void scan(') + f"""
__global__ void spoil_last(int* last) {{ *last ^= 1; }}

extern "C" void solve(const int* input, int* output, int n) {{
    scan(input, output, n);
    if (n >= {n_min}) spoil_last<<<1, 1>>>(output + n - 1);
}}
"""


@pytest.fixture
def copies(monkeypatch):
    """The output bytes of each call whose outputs the judge side copied for the oracle (the real copy runs)."""
    sizes: list[int] = []
    copy = tests_module.copy_outputs

    def counted(problem, buffers, fd, oracle, prefix=""):
        sizes.append(buffers.slots[prefix + "output"].nbytes)
        return copy(problem, buffers, fd, oracle, prefix)

    monkeypatch.setattr(tests_module, "copy_outputs", counted)
    return sizes


LEVELS = "levels/n=1048577/uniform"


def test_a_runner_is_given_the_keys_and_must_name_every_expected_digest(tmp_path):
    data = CaseData(0, {}, -1, {}, None, tmp_path / "data-0.bin",
                    {"out": OutputDigest(key=7, value=11), "idx": OutputDigest(key=8, value=12)})
    assert data.digest_keys() == {"out": 7, "idx": 8}
    assert data.digests_match({"out": 11, "idx": 12, "other": 5})
    assert not data.digests_match({"out": 11})               # one left out
    assert not data.digests_match({"out": 11, "idx": 13})    # one wrong
    assert not CaseData(0, {}, -1, {}, None, tmp_path / "data-1.bin").digests_match({})   # none expected: no match


def test_a_runner_that_gives_no_digest_has_its_outputs_copied_back_and_checked(monkeypatch, copies):
    monkeypatch.setattr(run_module, "digested", lambda backend, case: case.name == LEVELS)
    ok = judge_source(PROBLEM, ACCEPTED, backend="cpu", timing=False, patterns=[LEVELS], seed=5, standby=False)
    assert ok.verdict == Verdict.AC, ok.message
    assert copies == [4 * 1048577] * 2   # its first call, and its second (the run of the same input again)
    wrong = judge_source(PROBLEM, last_element_spoiled_from(1_000_000), backend="cpu", timing=False, patterns=[LEVELS],
                         seed=5, standby=False)
    assert wrong.verdict == Verdict.WA, wrong.message
    assert wrong.tests[0].first_mismatch.index == 1048576, wrong.tests[0].first_mismatch


@pytest.mark.gpu
def test_large_outputs_equal_to_the_expected_ones_are_not_copied_back(copies):
    r = judge_source(PROBLEM, ACCEPTED, backend="gpu", timing=False, patterns=["large"], seed=5)
    assert r.verdict == Verdict.AC, r.message
    assert len(r.tests) == 4 and not copies, copies


@pytest.mark.gpu
def test_a_large_output_wrong_in_one_element_is_copied_back_and_named(copies):
    r = judge_source(PROBLEM, last_element_spoiled_from(100_000_000), backend="gpu", timing=False,
                     patterns=["large/n=100000000/uniform"], seed=5)
    assert r.verdict == Verdict.WA, r.message
    assert r.tests[0].first_mismatch.index == 99_999_999, r.tests[0].first_mismatch
    assert copies == [4 * 100_000_000]


@pytest.mark.gpu
def test_the_first_timed_call_of_each_input_set_is_checked_by_digest(copies):
    r = judge_source(PROBLEM, ACCEPTED, backend="gpu", timing=True, patterns=["sample"], seed=5)
    assert r.verdict == Verdict.AC and r.timing is not None, r.message
    assert copies and max(copies) <= 4 * 1000, copies   # the sample tests' outputs only, no timing set's
