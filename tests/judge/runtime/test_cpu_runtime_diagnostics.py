"""What the CPU backend reports about broken kernels: kernel, block, thread and source lines."""
import ctypes

import numpy as np
import pytest

from cpu.cpu_solution import DEADLOCK, FORWARD, MLE, OK, RANDOM, RE, REVERSE, CpuSolution, build, line_of

SOURCE = "faulty_kernels.cu"


@pytest.fixture(scope="module")
def solution():
    return CpuSolution(build(SOURCE))


@pytest.fixture(autouse=True)
def fresh_device(solution):
    solution.reset()
    solution.set_schedule(FORWARD)


def line(marker: str) -> int:
    return line_of(SOURCE, marker)


def test_early_return_before_barrier_is_barrier_divergence(solution):
    n = 1000
    solution.call("solve_early_return", np.ones(1024, np.int32), np.zeros(4, np.int32), n)
    assert (solution.verdict(), solution.error_kind()) == (RE, "barrier_divergence")
    assert solution.error_message() == (
        f"barrier divergence in early_return_sum block (3,0,0): threads 0..231 wait at __syncthreads() on line "
        f"{line('__syncthreads();  // early')}, threads 232..255 exited (returned on line {line('if (i >= n) return;')}) "
        f"(early_return_sum<<<4, 256>>> on line {line('early_return_sum<<<')})")
    assert solution.error_launch() == 0
    assert solution.launches()[0].status == 719


def test_missing_barrier_changes_the_result_between_schedules(solution):
    x = np.arange(256, dtype=np.int32)
    results = {}
    for order in (FORWARD, REVERSE, RANDOM):
        solution.set_schedule(order, seed=99)
        out = np.zeros(256, np.int32)
        solution.call("solve_racy_scan", x, out, x.size)
        results[order] = out
        assert solution.verdict() == OK
    assert not np.array_equal(results[FORWARD], results[REVERSE])
    assert np.array_equal(results[REVERSE], np.cumsum(x))


def test_mask_leaving_out_an_active_lane_is_warp_misuse(solution):
    solution.call("solve_half_mask", np.ones(32, np.float32), np.zeros(1, np.float32))
    assert (solution.verdict(), solution.error_kind()) == (RE, "warp_misuse")
    assert solution.error_message().startswith(
        f"warp-primitive misuse in half_mask_reduce block (0,0,0): warp 0: __shfl_down_sync on line "
        f"{line('__shfl_down_sync(0x0000ffff')} with mask 0x0000ffff, but lane 16 is active and not in the mask")


@pytest.mark.parametrize("order", [FORWARD, REVERSE])   # lanes waiting when lane 20 returns; lane 20 gone when they come
def test_shuffle_with_a_lane_that_returned_is_warp_misuse(solution, order):
    solution.set_schedule(order)
    solution.call("solve_shuffle_after_exit", np.ones(32, np.int32), np.zeros(32, np.int32), 20)
    assert solution.error_kind() == "warp_misuse"
    assert (f"__shfl_xor_sync on line {line('__shfl_xor_sync(')} with mask 0xffffffff, but lane 20 exited "
            f"(returned on line {line('if (i >= n) return;  // shuffle')})") in solution.error_message()


def test_barrier_inside_a_branch_reports_who_waits_where(solution):
    solution.call("solve_conditional_barrier", np.zeros(256, np.int32), 2)
    assert solution.error_kind() == "barrier_divergence"
    assert (f"block (0,0,0): threads 0..31 wait at __syncthreads() on line {line('__syncthreads();  // branch')}, "
            f"threads 32..127 exited (reached the end of the kernel on line {line('}  // end of conditional_barrier')})"
            ) in solution.error_message()


def test_error_found_in_every_block_is_reported_for_the_lowest_block(solution):
    """Blocks run on several OS threads at once; whichever thread fails first, the message names block 0."""
    solution.set_threads(4)
    reported = set()
    try:
        for _ in range(20):
            solution.reset()
            solution.call("solve_conditional_barrier", np.zeros(256, np.int32), 512)
            reported.add(solution.error_message().split(":")[0])
    finally:
        solution.set_threads(0)
    assert reported == {"barrier divergence in conditional_barrier block (0,0,0)"}


def test_warp_primitive_waiting_on_a_barrier_is_a_deadlock(solution):
    solution.call("solve_warp_deadlock", np.zeros(64, np.int32))
    assert (solution.verdict(), solution.error_kind()) == (DEADLOCK, "deadlock")
    assert (f"deadlock in warp_waits_for_barrier block (0,0,0): threads 0..15 wait at __shfl_sync (mask 0xffffffff) "
            f"on line {line('__shfl_sync(0xffffffff, v, 0)')}, threads 16..63 wait at __syncthreads() on line "
            f"{line('__syncthreads();  // deadlock')}") in solution.error_message()


def test_deep_recursion_is_a_stack_overflow(solution):
    solution.call("solve_deep_recursion", np.zeros(64, np.int32), 100_000)
    assert (solution.verdict(), solution.error_kind()) == (RE, "stack_overflow")
    assert solution.error_message().startswith("stack overflow in deep_recursion block (0,0,0) thread (")


def test_null_pointer_write_is_an_illegal_address_and_sticky(solution):
    out = np.zeros(64, np.int32)
    status = solution.call("solve_after_fault", out)
    assert status == 700                               # cudaErrorIllegalAddress from cudaDeviceSynchronize
    assert (solution.verdict(), solution.error_kind()) == (RE, "illegal_address")
    assert solution.error_message().startswith(
        "illegal memory access in null_write block (0,0,0) thread (3,0,0): invalid write to address 0xc")
    launches = solution.launches()
    assert [(l.kernel, l.status) for l in launches] == [("null_write", 700), ("sticky_then_more", 700)]
    assert np.all(out[8:] == 0)                        # the second kernel never ran


def test_integer_division_by_zero(solution):
    solution.call("solve_divide", np.ones(8, np.int32), np.zeros(8, np.int32))
    assert solution.error_kind() == "arithmetic_error"
    assert "divide block (0,0,0) thread (5,0,0): integer division by zero" in solution.error_message()


def test_oversized_block_is_refused(solution):
    out = np.zeros(1, np.int32)
    solution.call("solve_oversized_block", out)
    assert (solution.verdict(), solution.error_kind()) == (RE, "launch_config")
    assert solution.error_message() == (f"invalid launch nothing<<<1, 2048>>> on line {line('nothing<<<1, 2048>>>')}: "
                                        f"blockDim.x = 2048 exceeds the limit of 1024")
    assert out[0] == 0 and solution.launches()[0].status == 9


def test_dynamic_shared_memory_above_48k_needs_the_attribute(solution):
    out = np.zeros(32, np.float32)
    solution.call("solve_too_much_shared", out, 0)
    assert solution.error_kind() == "launch_config"
    assert "cudaFuncAttributeMaxDynamicSharedMemorySize" in solution.error_message()
    solution.reset()
    solution.call("solve_too_much_shared", out, 1)
    assert solution.verdict() == OK and np.all(out == 1)


def test_allocation_beyond_the_arena_is_mle(solution):
    solution.lib.cudajudge_cpu_set_arena_bytes(1 << 20)
    try:
        assert solution.call("solve_too_much_memory", ctypes.c_uint64(2 << 20)) == 2   # cudaErrorMemoryAllocation
    finally:
        solution.lib.cudajudge_cpu_set_arena_bytes(1 << 30)
    assert (solution.verdict(), solution.error_kind()) == (MLE, "out_of_memory")


def test_write_past_a_cudamalloc_buffer_is_found_by_its_guard_bytes(solution):
    solution.call("solve_oob_temp", 100)
    assert solution.error_kind() == "out_of_bounds"
    assert solution.error_message().startswith(
        f"out-of-bounds write: 8 bytes after the end of the 400-byte cudaMalloc buffer allocated on line "
        f"{line('cudaMalloc(&temp')} were overwritten")


def test_trap_and_assert(solution):
    solution.call("solve_trap", np.zeros(8, np.int32))
    assert solution.error_kind() == "trap"
    assert f"__trap() on line {line('__trap()')} in traps block (0,0,0) thread (5,0,0)" in solution.error_message()
    solution.reset()
    solution.call("solve_assert", np.array([1, 2, -3, 4], np.int32))
    assert solution.error_kind() == "assert"
    assert "assertion `in[threadIdx.x] >= 0` failed in asserts block (0,0,0) thread (2,0,0)" in solution.error_message()


def test_reset_gives_a_fresh_device(solution):
    solution.call("solve_null_write", np.zeros(64, np.int32))
    assert solution.verdict() == RE
    solution.reset()
    assert (solution.verdict(), solution.error_kind(), solution.error_message(), solution.launches()) == (OK, "", "", [])
    out = np.zeros(256, np.int32)
    solution.call("solve_racy_scan", np.zeros(256, np.int32), out, 256)
    assert solution.verdict() == OK


def test_copy_past_a_cudamalloc_buffer_is_refused(solution):
    status = solution.call("solve_memcpy_overrun", np.zeros(101, np.int32), 100)
    assert status == 1                                  # cudaErrorInvalidValue
    assert solution.error_kind() == "out_of_bounds"
    assert solution.error_message() == (
        f"cudaMemcpy on line {line('cudaMemcpy(device, host')} touches 4 bytes past the end of the 400-byte "
        f"cudaMalloc buffer allocated on line {line('cudaMalloc(&device')}")


def test_grid_beyond_the_limits_is_refused(solution):
    solution.call("solve_tall_grid", np.zeros(1, np.int32))
    assert solution.error_kind() == "launch_config"
    assert solution.error_message().endswith("gridDim.y = 70000 exceeds the limit of 65535")


def test_launch_from_device_code_is_refused(solution):
    out = np.zeros(2, np.int32)
    solution.call("solve_nested_launch", out)
    assert solution.error_kind() == "launch_config"
    assert "dynamic parallelism is not supported" in solution.error_message()
    assert [l.kernel for l in solution.launches()] == ["parent", "child"]


def test_exception_escaping_a_kernel(solution):
    solution.call("solve_throw", np.zeros(4, np.int32))
    assert solution.error_kind() == "exception"
    assert solution.error_message().startswith(
        "C++ exception (an exception) thrown in throws block (0,0,0) thread (1,0,0); device code cannot throw")


def test_write_far_past_a_fenced_buffer_faults_in_the_kernel(solution):
    alloc, free = solution.lib.cudajudge_cpu_alloc, solution.lib.cudajudge_cpu_free
    alloc.restype, alloc.argtypes, free.argtypes = ctypes.c_void_p, [ctypes.c_uint64], [ctypes.c_void_p]
    n = 1000
    buffer = alloc(n * 4 + 2 * 4096)
    try:
        assert buffer % 256 == 0
        solution.call("solve_write_far", ctypes.c_void_p(buffer + 4096), n)
        assert solution.error_kind() == "illegal_address"
        assert solution.error_message().startswith("illegal memory access in write_far block (0,0,0) thread (2,0,0): invalid write")
    finally:
        assert free(buffer) == 0
    assert free(buffer) == -1
