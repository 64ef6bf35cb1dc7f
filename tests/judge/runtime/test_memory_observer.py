"""The CPU backend's memory observer: every access of device code on small tests, so races and
shared-memory bounds are exact, each named with its thread and source line."""
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.problems.validator import declares_race
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "data" / "cpu_cases"


def judge_case(problem: int, name: str, variant: int | None = None, *, seed: int = 11, tests=("sample", "edge")):
    text = (CASES / name).read_text()
    source = (f"#define VARIANT {variant}\n" if variant is not None else "") + text
    return judge_source(load_problem(problem), source, backend="cpu", timing=False, filename=name, seed=seed,
                        patterns=list(tests)), text


def line_of(text: str, marker: str, shift: int = 0) -> int:
    return shift + next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


@pytest.mark.parametrize("seed", [11, 1, 2, 3])
def test_non_atomic_shared_histogram_is_wa_naming_the_race(seed):
    r, text = judge_case(4, "shared_histogram_lost_update.cu", seed=seed)
    assert r.verdict == "WA", r.message
    line = line_of(text, "the lost update")
    assert "data race on `bins[" in r.message and "(shared) in count_keys block (" in r.message
    assert f"wrote on line {line}" in r.message and f"read on line {line}" in r.message and "no barrier between" in r.message
    assert "atomicAdd" in r.message and "Volta" not in r.message


@pytest.mark.parametrize("seed", [11, 1, 2, 3])
def test_race_between_blocks_on_global_memory_is_wa(seed):
    r, text = judge_case(3, "block_sums_race.cu", 0, seed=seed)
    assert r.verdict == "WA", r.message
    line = line_of(text, "the racing line", shift=1)
    assert "data race on `output[0]` (global) in add_blocks: thread (0,0,0) of block (" in r.message
    assert f"on line {line}" in r.message and "of different blocks" in r.message


def test_blocks_that_add_atomically_are_accepted():
    r, _ = judge_case(3, "block_sums_race.cu", 1, tests=("sample", "edge", "shape"))
    assert r.verdict == "AC", r.message


@pytest.mark.parametrize("seed", [11, 1, 2, 3])
def test_warp_synchronous_reduction_without_syncwarp_is_a_race_under_volta_semantics(seed):
    r, text = judge_case(3, "warp_tail_reduction.cu", 0, seed=seed)
    assert r.verdict == "WA", r.message
    assert "data race on `sm[" in r.message and "(shared)" in r.message
    assert "Volta" in r.message and "__syncwarp()" in r.message and f"line {line_of(text, 'lockstep assumption', 1)}" in r.message


def test_the_same_reduction_with_syncwarp_is_accepted():
    r, _ = judge_case(3, "warp_tail_reduction.cu", 1)
    assert r.verdict == "AC", r.message


def test_write_past_a_static_shared_array_is_re_naming_it():
    r, text = judge_case(1, "static_shared_tile.cu", 1)
    assert r.verdict == "RE", r.message
    assert "out-of-bounds write of 4 bytes of shared memory in relu_tile block (" in r.message
    assert "`tile[256]` is past the end of `tile` (float[8][32], 1024 bytes), which has 256 elements" in r.message
    assert f"thread (255,0,0) on line {line_of(text, 'the overflowing line', 1)}" in r.message


def test_threads_writing_the_same_value_do_not_race_and_different_values_do():
    same, _ = judge_case(1, "static_shared_tile.cu", 2)
    assert same.verdict == "AC", same.message
    different, _ = judge_case(1, "static_shared_tile.cu", 3)
    assert different.verdict == "WA", different.message
    assert "data race on `flag` (shared)" in different.message and "wrote a different value" in different.message


def test_static_shared_arrays_in_bounds_are_accepted():
    r, _ = judge_case(1, "static_shared_tile.cu", 0, tests=("sample", "edge", "shape"))
    assert r.verdict == "AC", r.message


def test_out_of_bounds_read_of_a_test_buffer_is_re_with_thread_and_line():
    source = """
__global__ void shifted(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i + 1], 0.0f);
}
extern "C" void solve(const float* input, float* output, int N) { shifted<<<(N + 255) / 256, 256>>>(input, output, N); }
"""
    r = judge_source(load_problem(1), source, backend="cpu", timing=False, seed=11, patterns=["sample"])
    assert r.verdict == "RE", r.message
    assert "out-of-bounds read of 4 bytes in shifted block (0,0,0) thread (" in r.message and "on line 4" in r.message
    assert "is past the end of input, which has" in r.message


RACES = sorted(p for p in (ROOT / "problems").glob("*/solutions/rejected/*.cu") if declares_race(p))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", RACES, ids=lambda p: f"{p.parts[-4]}/{p.name}")
def test_every_declared_race_of_the_catalog_is_reported_as_a_race_at_every_seed(path, seed):
    problem = load_problem(int(path.parts[-4].split("-")[0]))
    r = judge_source(problem, path.read_text(), backend="cpu", timing=False, filename=path.name, seed=seed,
                     patterns=["sample"])
    assert r.verdict == "WA" and "data race on `" in r.message, r.message


TRANSPOSES = ROOT / "problems" / "005-matrix-transpose" / "solutions" / "accepted"


def hints_of(problem: int, path: Path):
    r = judge_source(load_problem(problem), path.read_text(), backend="cpu", timing=False, filename=path.name, seed=11,
                     patterns=["sample", "edge"])
    assert r.verdict == "AC", r.message
    assert r.hints is not None and r.hints.tests > 0
    return r.hints


def test_the_square_tile_transpose_shows_32_way_conflicts_on_its_column_read_and_the_padded_one_none():
    text = (TRANSPOSES / "tiled_unpadded.cu").read_text()
    square = hints_of(5, TRANSPOSES / "tiled_unpadded.cu")
    column_read = next(a for a in square.accesses if a.space == "shared" and a.access == "load")
    assert column_read.worst_bank_ways == 32 and "32-way bank conflicts" in column_read.hint
    assert column_read.line == line_of(text, "tile[threadIdx.x][threadIdx.y + k]")
    padded = hints_of(5, TRANSPOSES / "tiled_padded.cu")
    shared = [a for a in padded.accesses if a.space == "shared"]
    assert shared and all(a.worst_bank_ways == 1 and not a.hint for a in shared)
    assert all(a.sectors_per_request == a.fewest_sectors_per_request for a in padded.accesses if a.space == "global")


def test_the_naive_transpose_shows_its_strided_store_uncoalesced_and_an_estimate():
    naive = hints_of(5, TRANSPOSES / "naive.cu")
    store = next(a for a in naive.accesses if a.space == "global" and a.access == "store")
    assert store.sectors_per_request >= 4 * store.fewest_sectors_per_request and "uncoalesced" in store.hint
    load = next(a for a in naive.accesses if a.space == "global" and a.access == "load")
    assert not load.hint
    estimate = naive.kernels[0]
    assert estimate.bytes > 0 and estimate.lower_bound_us == pytest.approx(estimate.bytes / 4e6)


def test_an_atomic_in_a_header_is_shown_on_the_line_that_calls_it():
    path = ROOT / "problems" / "004-histogram" / "solutions" / "accepted" / "shared_privatized.cu"
    atomics = [a for a in hints_of(4, path).accesses if a.access == "atomic"]
    assert {a.line for a in atomics} == {line_of(path.read_text(), "atomicAdd(&bins[key], 1)"),
                                         line_of(path.read_text(), "atomicAdd(&histogram[b], count)")}
