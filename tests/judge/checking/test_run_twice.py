"""The judge runs one test's input a second time, the test with the most elements that every backend runs:
state a call leaves behind (a static, a device variable never reset) shows there as WA saying so."""
from judge.problems.loader import load_problem
from judge.result import Verdict
from judge.submission import judge_source

PROBLEM = load_problem(22)   # a 3-D max filter: solve(input, output, nx, ny, nz)
ACCEPTED = (PROBLEM.folder / "solutions" / "accepted" / "z_streaming.cu").read_text()
# A strip of 1000 voxels has the larger sizes added up (1002 against 300); the box has the more elements.
STRIP, BOX = "edge/nx=1000,ny=1,nz=1/uniform", "boxes/nx=100,ny=100,nz=100/uniform"
# Right on every first call; wrong when a box of 10^6 voxels or more comes again in the same buffers.
STALE = ACCEPTED.replace('extern "C" void solve(', 'static void filter(') + """
extern "C" void solve(const float* input, float* output, int nx, int ny, int nz) {
    static const float* last_large = nullptr;
    const bool large = (long long)nx * ny * nz >= 1000000;
    const bool again = large && input == last_large;
    if (large) last_large = input;
    filter(input, output, nx, ny, nz);
    if (again) cudaMemset(output, 0, sizeof(float));
}
"""


def test_state_left_over_from_the_first_call_shows_on_the_test_with_the_most_elements():
    r = judge_source(PROBLEM, STALE, backend="cpu", timing=False, patterns=[STRIP, BOX], seed=3, fail_fast=False,
                     standby=False)
    verdicts = {t.name: t.verdict for t in r.tests}
    assert verdicts == {STRIP: Verdict.AC, BOX: Verdict.WA}, r.message
    box = next(t for t in r.tests if t.name == BOX)
    assert "the same input run twice gave different answers; the second run is wrong" in box.message, box.message
    assert box.first_mismatch is not None and box.first_mismatch.index == 0, box.first_mismatch


def test_the_accepted_solution_passes_the_same_tests_run_twice():
    r = judge_source(PROBLEM, ACCEPTED, backend="cpu", timing=False, patterns=[STRIP, BOX], seed=3, standby=False)
    assert r.verdict == Verdict.AC, r.message
