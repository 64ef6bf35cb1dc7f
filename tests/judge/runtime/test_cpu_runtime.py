"""The CPU backend runs correct CUDA solutions exactly: real g++ builds called through ctypes."""
import numpy as np
import pytest

from cpu.cpu_solution import FORWARD, OK, RANDOM, REVERSE, CpuSolution, build, line_of

SOURCE = "correct_kernels.cu"


@pytest.fixture(scope="module")
def solution():
    return CpuSolution(build(SOURCE))


@pytest.fixture(autouse=True)
def fresh_device(solution):
    solution.reset()
    solution.set_schedule(FORWARD)
    yield
    assert solution.verdict() == OK, solution.error_message()


def test_map(solution):
    x = np.random.default_rng(1).standard_normal(100_003).astype(np.float32)
    y = np.full_like(x, np.nan)
    solution.call("solve_relu", x, y, x.size)
    np.testing.assert_array_equal(y, np.maximum(x, 0))


@pytest.mark.parametrize("n", [1, 255, 256, 257, 70_001])
def test_block_reduction_in_shared_memory(solution, n):
    x = np.random.default_rng(n).integers(-50, 50, n, dtype=np.int32)
    out = np.zeros(1, np.int32)
    solution.call("solve_block_sum", x, out, n)
    assert out[0] == x.sum()


@pytest.mark.parametrize("n", [1, 31, 33, 512, 100_000])
def test_warp_shuffle_reduction(solution, n):
    x = np.random.default_rng(n).integers(-50, 50, n, dtype=np.int32)
    out = np.full(1, 123, np.int32)
    solution.call("solve_warp_sum", x, out, n)
    assert out[0] == x.sum()


@pytest.mark.parametrize("n", [1, 2, 1023, 1024, 1025, 999_983, 2_000_003])
def test_three_pass_scan(solution, n):
    x = np.random.default_rng(n).integers(-16, 17, n, dtype=np.int32)
    out = np.full(n, -7, np.int32)
    solution.call("solve_scan", x, out, n)
    expected = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.int32)
    np.testing.assert_array_equal(out, expected)
    assert [launch.kernel for launch in solution.launches()] == ["scan_tiles", "scan_sums", "add_offsets"]


def test_histogram_with_shared_privatization(solution):
    values = np.random.default_rng(5).integers(0, 256, 300_000, dtype=np.int32)
    bins = np.full(256, 99, np.uint32)
    solution.call("solve_histogram", values, values.size, bins, 256)
    np.testing.assert_array_equal(bins, np.bincount(values, minlength=256))


def test_cooperative_groups_tiles(solution):
    n = 1000
    x = np.random.default_rng(6).integers(-100, 100, n, dtype=np.int32)
    warps = (n + 127) // 128 * 4
    out = np.zeros(4 * warps, np.int32)
    solution.call("solve_cg_sum", x, out, n)
    padded = np.concatenate([x, np.zeros(warps * 32 - n, np.int32)]).reshape(warps, 32)
    got = out.reshape(warps, 4)
    np.testing.assert_array_equal(got[:, 0], padded.sum(axis=1))
    np.testing.assert_array_equal(got[:, 1], padded.sum(axis=1))
    np.testing.assert_array_equal(got[:, 2], padded.max(axis=1))
    np.testing.assert_array_equal(got[:, 3], padded.min(axis=1))


def test_extern_shared_aligned_and_templated(solution):
    x = np.arange(64 * 5, dtype=np.float64)
    out = np.zeros_like(x)
    solution.call("solve_reverse", x, out, x.size)
    np.testing.assert_array_equal(out, x.reshape(5, 64)[:, ::-1].ravel())
    launch = solution.launches()[0]
    assert (launch.kernel, launch.shared_bytes) == ("reverse_tile<double>", 64 * 8)


def test_extern_shared_arrays_alias_one_buffer(solution):
    x = np.random.default_rng(7).standard_normal(300).astype(np.float32)
    out = np.zeros_like(x)
    solution.call("solve_scale", x, out, x.size, 3.0)
    np.testing.assert_allclose(out, x * 3.0, rtol=1e-6)


def test_template_kernel_deduced_from_arguments(solution):
    p = np.zeros(1000, np.float32)
    solution.call("solve_fill", p, p.size, 2.5)
    assert np.all(p == 2.5)
    assert solution.launches()[0].kernel == "fill"


def test_printf_is_written_in_thread_order(solution):
    solution.set_schedule(REVERSE)
    solution.call("solve_printf", 10)
    expected = "".join(f"thread {i % 4} of block {i // 4}\n" for i in range(10))
    assert solution.printf_output() == expected


def test_printf_is_capped(solution):
    solution.lib.cudajudge_cpu_set_printf_cap(100)
    try:
        solution.call("solve_printf", 40)
        assert len(solution.printf_output()) == 100
        assert solution.printf_dropped() > 0
    finally:
        solution.lib.cudajudge_cpu_set_printf_cap(1 << 20)


def test_atomics_follow_cuda_semantics(solution):
    threads = 64
    u = np.array([0, 0, 0, 0, 0, 0xFFFFFFFF, 0], np.uint32)
    s = np.array([-5, 5, 0, 0], np.int32)
    f = np.zeros(1, np.float32)
    big = np.zeros(1, np.uint64)
    solution.call("solve_atomics", u, s, f, big, threads)
    assert u[0] == threads % 10                      # atomicInc wraps to 0 after 9
    assert u[1] == (10 - threads % 10) % 10          # atomicDec wraps from 0 to 9
    assert u[2] == 2 * threads
    assert u[3] == 0xFFFFFFFF
    assert u[4] == 0                                 # an even number of xors
    assert u[5] == 0xFFFFFF00
    assert u[6] == threads                           # compare-and-swap loop
    assert list(s) == [threads - 1, -(threads - 1), -3 * threads, 77]
    assert f[0] == threads * 0.5
    assert big[0] == threads << 33


def test_two_dimensional_blocks_and_grids(solution):
    a = np.random.default_rng(8).standard_normal((37, 53)).astype(np.float32)
    out = np.zeros((53, 37), np.float32)
    solution.call("solve_transpose", a, out, 37, 53)
    np.testing.assert_array_equal(out, a.T)
    launch = solution.launches()[0]
    assert (launch.kernel, launch.grid, launch.block) == ("(anonymous namespace)::transpose", (4, 3, 1), (16, 16, 1))


def test_votes_and_barrier_reductions(solution):
    x = np.array([(-1) ** i * (i % 9) for i in range(64)], np.int32)
    x[40] = 7
    out = np.zeros(12, np.int32)
    solution.call("solve_votes", x, out)
    for w in range(2):
        lanes = x[32 * w:32 * w + 32]
        assert out[6 * w + 0] == np.count_nonzero(lanes > 0)
        assert out[6 * w + 1] == 0
        assert out[6 * w + 2] == 1
        assert out[6 * w + 3] == np.count_nonzero(x > 0)
        assert out[6 * w + 4] == 2 * 1 + 0           # some lane holds 7; some holds 0
        assert out[6 * w + 5] == np.count_nonzero((lanes & 3) == (lanes[0] & 3))


@pytest.mark.parametrize("schedule", [FORWARD, REVERSE, RANDOM])
def test_every_lane_gets_its_match_and_reduction(solution, schedule):
    solution.set_schedule(schedule)
    x = np.random.default_rng(5).integers(-20, 20, 64, dtype=np.int32)
    x[32:] = 4   # the second warp: one value, so __match_all_sync holds there
    out = np.zeros((64, 10), np.uint32)
    solution.call("solve_warp_collectives", x, out)
    for w in range(2):
        lanes = x[32 * w:32 * w + 32]
        even = np.arange(0, 32, 2)

        def mask(selected):
            return sum(1 << int(i) for i in np.flatnonzero(selected))
        for lane in range(32):
            o = out[32 * w + lane]
            assert o[0] == mask((lanes & 7) == (lanes[lane] & 7)), (w, lane)
            same_parity = bool(np.all((lanes & 1) == (lanes[0] & 1)))
            assert (o[1], o[2]) == ((0xFFFFFFFF, 1) if same_parity else (0, 0)), (w, lane)
            assert o[3].view(np.int32) == lanes.min() and o[4].view(np.int32) == lanes.max()
            assert o[5] == lanes.view(np.uint32).min()
            u = lanes.view(np.uint32)
            assert o[6] == np.bitwise_or.reduce(u) ^ np.bitwise_xor.reduce(u)
            if lane % 2 == 0:
                assert o[7] == mask(np.isin(np.arange(32), even) & (np.fmod(lanes, 3) == np.fmod(lanes[lane], 3))), (w, lane)
                assert o[8].view(np.int32) == lanes[even].sum()
                assert o[9] == mask(np.isin(np.arange(32), even) & (lanes > 0))


def test_coalesced_group_aggregates_atomics(solution):
    x = np.random.default_rng(9).integers(-5, 5, 2000, dtype=np.int32)
    out = np.zeros_like(x)
    count = np.zeros(1, np.int32)
    solution.call("solve_compact", x, out, count, x.size)
    positives = x[x > 0]
    assert count[0] == positives.size
    np.testing.assert_array_equal(np.sort(out[:count[0]]), np.sort(positives))


def test_shared_structs_unions_and_template_functions(solution):
    blocks = 6
    x = np.random.default_rng(10).integers(0, 1000, 64 * blocks, dtype=np.int32)
    out = np.zeros(3 * blocks, np.int32)
    solution.call("solve_shared_kinds", x, out, blocks)
    got = out.reshape(blocks, 3)
    np.testing.assert_array_equal(got[:, 0], np.arange(blocks))
    assert np.all(got[:, 1] == 3)
    np.testing.assert_array_equal(got[:, 2], x.reshape(blocks, 64).max(axis=1))


def test_device_properties_and_occupancy(solution):
    out = np.full(10, -1, np.int32)
    solution.call("solve_device_info", out)
    assert list(out[:6]) == [132, 48 * 1024, 227 * 1024, 1024, 32, 132]
    block, min_grid, per_sm = out[6:9]
    assert block % 32 == 0 and 0 < block <= 1024 and min_grid == 132 * (2048 // block)
    assert per_sm == 8
    assert out[9] == 0


def test_launch_log(solution):
    x = np.ones(5000, np.int32)
    out = np.zeros(1, np.int32)
    solution.call("solve_block_sum", x, out, x.size)
    launches = solution.launches()
    assert [(l.kernel, l.grid[0], l.block[0], l.status) for l in launches] == [
        ("block_sum<256>", 20, 256, 0), ("block_sum<256>", 1, 256, 0)]
    assert launches[0].line == line_of(SOURCE, "block_sum<256><<<blocks, 256>>>")


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("order", [FORWARD, REVERSE, RANDOM])
def test_every_schedule_and_thread_count_gives_the_same_answer(solution, threads, order):
    solution.set_threads(threads)
    solution.set_schedule(order, seed=1234)
    try:
        x = np.random.default_rng(11).integers(-16, 17, 50_000, dtype=np.int32)
        out = np.zeros_like(x)
        solution.call("solve_scan", x, out, x.size)
        np.testing.assert_array_equal(out, np.concatenate([[0], np.cumsum(x)[:-1]]))
        total = np.zeros(1, np.int32)
        solution.call("solve_warp_sum", x, total, x.size)
        assert total[0] == x.sum()
    finally:
        solution.set_threads(0)


def _shuffle_source(lane: int, op: str, arg: int, width: int) -> int:
    start = lane - lane % width
    if op == "idx":
        return start + arg % width
    if op == "up":
        return lane - arg if lane - start >= arg else lane
    if op == "down":
        return lane + arg if lane - start + arg < width else lane
    source = lane ^ arg
    return source if source < start + width else lane


def test_shuffles_with_widths_and_warp_scans(solution):
    x = np.random.default_rng(12).integers(-1000, 1000, 64, dtype=np.int32)
    out = np.zeros((64, 6), np.int32)
    solution.call("solve_shuffles", x, out)
    for t in range(64):
        warp, lane = divmod(t, 32)
        values = x[32 * warp:32 * warp + 32]
        expected = [values[_shuffle_source(lane, op, arg, width)]
                    for op, arg, width in (("idx", 3, 8), ("up", 2, 16), ("down", 5, 32), ("xor", 4, 8))]
        expected += [values.sum(), values[:lane + 1].sum()]
        assert list(out[t]) == expected, t


def test_half_precision(solution):
    rng = np.random.default_rng(13)
    x = rng.standard_normal(1000).astype(np.float16)
    y = rng.standard_normal(1000).astype(np.float16)
    expected = (np.float32(1.5) * x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)
    solution.call("solve_half_axpy", x, y, 1.5, x.size)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("order", [FORWARD, REVERSE, RANDOM])
def test_spin_lock_between_threads_of_a_block(solution, order):
    solution.set_schedule(order, seed=5)
    blocks, threads = 3, 96
    counter = np.zeros(1, np.int32)
    inside_seen = np.zeros(blocks * threads, np.int32)
    solution.call("solve_spin_lock", counter, inside_seen, blocks, threads)
    assert counter[0] == blocks * threads
    assert np.all(inside_seen == 1)
