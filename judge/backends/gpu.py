"""The GPU backend: CuPy owns the context and the buffers; the built library launches through the driver API.

Runs only in the run child. Correctness calls synchronize after every launch (checked launches),
so a fault names the launch that caused it; timed calls do not.
"""
from __future__ import annotations

import ctypes
import mmap
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy as np

from judge.backends.base import Allocation, Launch, RunError, broken_driver_message, solve_entry
from judge.backends.gpu_algorithms import HANDLER_TYPE, DeviceAlgorithms
from judge.backends.gpu_kernels import GpuKernels
from judge.problems.model import Problem

ERROR_BUFFER_BYTES = 4096
# cudaError_t values after which the context is unusable (sticky errors).
STICKY_ERRORS = {700, 701, 702, 703, 704, 709, 710, 711, 712, 713, 714, 715, 716, 717, 718, 719, 720, 999}


class LaunchInfo(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_char_p), ("lowered", ctypes.c_char_p), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint * 3), ("shared_bytes", ctypes.c_size_t), ("line", ctypes.c_int),
                ("status", ctypes.c_int), ("elapsed_ms", ctypes.c_float)]


@contextmanager
def _file_pages(fd: int, offset: int, nbytes: int, prot: int) -> Iterator[int]:
    """The address at which a file's `nbytes` from `offset` are mapped, while the block runs."""
    if not nbytes:
        yield 0
        return
    skip = offset % mmap.ALLOCATIONGRANULARITY
    with mmap.mmap(fd, skip + nbytes, offset=offset - skip, prot=prot) as pages:
        view = np.frombuffer(pages, np.uint8)
        try:
            yield view.ctypes.data + skip
        finally:
            del view   # the mapping cannot close while an array holds it


class DeviceMemory:
    """Buffers on the process's one GPU, without a submission: what the oracle times the baseline with."""

    def __init__(self):
        import cupy as cp

        self.cp = cp
        cp.cuda.Device(0).use()
        self.stream = cp.cuda.Stream.null     # the legacy default stream: the user's stream 0 semantics
        self.kernels = GpuKernels(cp)

    # --- memory ------------------------------------------------------------------------------

    def allocate(self, nbytes: int) -> Allocation:
        mem = self.cp.cuda.alloc(nbytes)
        return Allocation(mem.ptr, nbytes, mem)

    def write(self, alloc: Allocation, offset: int, data: np.ndarray) -> None:
        data = np.ascontiguousarray(data)
        self.cp.cuda.runtime.memcpy(alloc.address + offset, data.ctypes.data, data.nbytes,
                                    self.cp.cuda.runtime.memcpyHostToDevice)

    def read(self, alloc: Allocation, offset: int, nbytes: int) -> np.ndarray:
        out = np.empty(nbytes, np.uint8)
        self.cp.cuda.runtime.memcpy(out.ctypes.data, alloc.address + offset, nbytes,
                                    self.cp.cuda.runtime.memcpyDeviceToHost)
        return out

    def fill(self, alloc: Allocation, offset: int, nbytes: int, pattern: np.ndarray) -> None:
        self.kernels.fill(alloc.address + offset, nbytes, pattern)

    def free(self, alloc: Allocation) -> None:
        alloc.handle = None   # back to CuPy's pool

    def place(self, fd: int, offset: int, span: int) -> Allocation:
        """`span` bytes of device memory holding the exchange file's bytes at `offset`."""
        alloc = self.allocate(span)
        self.upload(fd, offset, alloc)
        return alloc

    def upload(self, fd: int, offset: int, alloc: Allocation) -> None:
        self.copy_in(fd, offset, alloc, 0, alloc.nbytes)

    def download(self, fd: int, offset: int, alloc: Allocation) -> None:
        self.copy_out(fd, offset, alloc, 0, alloc.nbytes)

    def copy_in(self, fd: int, offset: int, alloc: Allocation, start: int, nbytes: int) -> None:
        """`nbytes` of a file's bytes at `offset` onto the device at `start` of `alloc`, straight from its pages."""
        with _file_pages(fd, offset, nbytes, mmap.PROT_READ) as address:
            self.cp.cuda.runtime.memcpy(alloc.address + start, address, nbytes, self.cp.cuda.runtime.memcpyHostToDevice)

    def copy_out(self, fd: int, offset: int, alloc: Allocation, start: int, nbytes: int) -> None:
        """`nbytes` at `start` of `alloc` into a file at `offset`, where the judge side reads them: through a
        mapping, since the runner's file-size limit (its output cap) forbids write() that far."""
        with _file_pages(fd, offset, nbytes, mmap.PROT_READ | mmap.PROT_WRITE) as address:
            self.cp.cuda.runtime.memcpy(address, alloc.address + start, nbytes, self.cp.cuda.runtime.memcpyDeviceToHost)

    def copy_within(self, alloc: Allocation, start: int, source: Allocation, source_start: int, nbytes: int) -> None:
        """`nbytes` of `source` from `source_start` onto `alloc` at `start`, copied on the device."""
        self.cp.cuda.runtime.memcpy(alloc.address + start, source.address + source_start, nbytes,
                                    self.cp.cuda.runtime.memcpyDeviceToDevice)

    def copy_of(self, alloc: Allocation, start: int, nbytes: int) -> Allocation | None:
        """A new allocation holding `nbytes` of `alloc` from `start`, copied on the device; None when the
        device has no room for it (a test that fills a small GPU)."""
        try:
            copy = self.allocate(nbytes)
        except self.cp.cuda.memory.OutOfMemoryError:
            return None
        self.copy_within(copy, 0, alloc, start, nbytes)
        return copy

    def differs(self, copy: Allocation, alloc: Allocation, start: int) -> bool:
        """Whether `alloc` from `start` differs in any bit from `copy` (made by copy_of)."""
        return self.kernels.differs(copy.address, alloc.address + start, copy.nbytes)

    def digest(self, alloc: Allocation, start: int, nbytes: int, key: int) -> int:
        """judge/output_digest.py's digest of `nbytes` of `alloc` from `start`, under `key`."""
        return self.kernels.digest(alloc.address + start, nbytes, key)

    def device_view(self, alloc: Allocation, offset: int, count: int, dtype):
        return self.cp.ndarray((count,), dtype, memptr=alloc.handle + offset)


class GpuBackend(DeviceMemory):
    name = "gpu"
    schedules = ("device",)
    copies_buffers = True

    def __init__(self, problem: Problem, library: Path, artifacts: dict[str, str], before_user_code):
        super().__init__()
        self.device = self.cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        self.arena = self.cp.cuda.alloc(problem.limits.arena_mb << 20)
        self.algorithms = DeviceAlgorithms(self.cp)
        if artifacts.get("device_algorithms"):
            self.algorithms.load()   # compiled (or loaded from the kernel cache) outside solve()'s time limit
        before_user_code()
        self.lib = ctypes.CDLL(str(library), mode=ctypes.RTLD_LOCAL)
        self.solve = solve_entry(self.lib, problem)
        self.lib.cudajudge_launch_record.argtypes = [ctypes.c_int, ctypes.POINTER(LaunchInfo)]
        self.lib.cudajudge_last_error_message.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        self.lib.cudajudge_init.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_ulonglong, ctypes.c_size_t,
                                            ctypes.c_void_p]
        self.lib.cudajudge_arena_in_use.restype = ctypes.c_size_t
        cubin = Path(artifacts["cubin"]).read_bytes()
        self._cubin = ctypes.create_string_buffer(cubin, len(cubin))
        if self.lib.cudajudge_init(self._cubin, len(cubin), self.arena.ptr, self.arena.mem.size, self.stream.ptr):
            raise RuntimeError(f"loading the module failed: {self._error()[1]}")
        self.lib.cudajudge_set_checked_launches(1)
        self.lib.cudajudge_set_algorithm_handler.argtypes = [HANDLER_TYPE]
        self.lib.cudajudge_set_algorithm_handler(self.algorithms.handler)

    # --- running -------------------------------------------------------------------------------

    def set_schedule(self, schedule: str, observe: bool = False) -> None:
        pass   # the hardware decides the order

    def name(self, alloc: Allocation, payload_offset: int, nbytes: int, name: str, element: int) -> None:
        pass   # only the CPU backend's observer names buffers

    def observations(self) -> tuple[list, list]:
        return [], []   # only the CPU backend observes accesses

    def reset(self) -> None:
        self.lib.cudajudge_reset()

    def _error(self) -> tuple[int, str]:
        buf = ctypes.create_string_buffer(ERROR_BUFFER_BYTES)
        code = self.lib.cudajudge_last_error_message(buf, ERROR_BUFFER_BYTES)
        return code, buf.value.decode("utf-8", "replace")

    def _run_error(self) -> RunError | None:
        code, message = self._error()
        if self.lib.cudajudge_memory_exceeded():
            return RunError("MLE", message or "cudaMalloc failed: the device memory arena is exhausted")
        if code == 0:
            return None
        failed = next((launch for launch in reversed(self.launches()) if launch.status != 0), None)
        return RunError("RE", message, sticky=code in STICKY_ERRORS, launch=failed)

    def device_failure(self, exc: BaseException) -> bool:
        return isinstance(exc, (self.cp.cuda.runtime.CUDARuntimeError, self.cp.cuda.driver.CUDADriverError))

    def call_solve(self, args: list) -> RunError | None:
        self.call_solve_async(args)
        try:
            self.stream.synchronize()
        except self.cp.cuda.runtime.CUDARuntimeError as exc:
            recorded = self._run_error()
            message = recorded.message if recorded else broken_driver_message(exc)
            return RunError("RE", message, sticky=True, launch=recorded.launch if recorded else None)
        return self._run_error()

    def call_solve_async(self, args: list) -> None:
        self.solve(*args)

    def pending_error(self) -> RunError | None:
        return self._run_error()

    def launches(self) -> list[Launch]:
        out = []
        info = LaunchInfo()
        for i in range(self.lib.cudajudge_launch_count()):
            if self.lib.cudajudge_launch_record(i, ctypes.byref(info)) != 0:
                break
            out.append(Launch((info.kernel or b"?").decode(), tuple(info.grid), tuple(info.block), int(info.shared_bytes),
                              int(info.line), float(info.elapsed_ms) * 1e3 if info.elapsed_ms >= 0 else None,
                              int(info.status)))
        return out

    def profile_call(self, args: list) -> list[Launch]:
        """One untimed call with an event pair around every launch."""
        self.reset()
        self.lib.cudajudge_set_profiled_launches(1)
        try:
            self.solve(*args)
            self.stream.synchronize()
            return self.launches()
        finally:
            self.lib.cudajudge_set_profiled_launches(0)

    def timed_mode(self, on: bool) -> None:
        """Timed calls run without a synchronization after every launch."""
        self.lib.cudajudge_set_checked_launches(0 if on else 1)

    def printf_output(self) -> tuple[str, int]:
        return "", 0   # the driver writes kernel printf to the process's stdout, which the judge side reads
