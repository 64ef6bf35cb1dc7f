"""What the harness needs from a backend: memory, a solve() call, errors and a launch log.

The harness is backend-independent; a backend only moves bytes and runs the built library.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from judge.entry import ENTRY_SYMBOL
from judge.problems.model import Problem

# ctypes types of scalar parameters, by dtype.
SCALAR_CTYPES = {
    "int8": ctypes.c_int8, "uint8": ctypes.c_uint8, "int16": ctypes.c_int16, "uint16": ctypes.c_uint16,
    "int32": ctypes.c_int32, "uint32": ctypes.c_uint32, "int64": ctypes.c_int64, "uint64": ctypes.c_uint64,
    "float32": ctypes.c_float, "float64": ctypes.c_double,
}


@dataclass(frozen=True)
class Launch:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int
    line: int
    elapsed_us: float | None = None   # only in a profiling pass
    status: int = 0                   # cudaError_t of the launch: 0 if it was made and ran cleanly

    def describe(self) -> str:
        def dim(d):
            return str(d[0]) if d[1:] == (1, 1) else "(" + ", ".join(map(str, d)) + ")"
        smem = f", {self.shared_bytes}" if self.shared_bytes else ""
        return f"{self.kernel}<<<{dim(self.grid)}, {dim(self.block)}{smem}>>> (line {self.line})"


@dataclass
class RunError:
    """An error raised while solve() ran, already phrased for the learner."""
    verdict: str              # RE | MLE | TLE | OLE | WA (a data race the CPU backend observed)
    message: str
    sticky: bool = False      # the device is unusable afterwards: stop testing
    launch: Launch | None = None


@dataclass
class Allocation:
    address: int
    nbytes: int
    handle: object = field(repr=False, default=None)   # keeps the memory alive
    named: int = 0                                      # the payload address the CPU observer knows it by


class Backend(Protocol):
    name: str            # "gpu" | "cpu"
    device: str          # e.g. "NVIDIA H200" or "CPU emulation (2 threads)"
    schedules: tuple[str, ...]   # thread orders each test is run in (race detection on the CPU)
    # True: buffers are device copies of the exchange file's bytes (GPU, a TimedBackend); False: its pages (CPU)
    copies_buffers: bool

    def place(self, fd: int, offset: int, span: int) -> Allocation: ...       # a buffer file's slot, in memory
    def upload(self, fd: int, offset: int, alloc: Allocation) -> None: ...   # the slot's bytes, again
    def download(self, fd: int, offset: int, alloc: Allocation) -> None: ... # the memory, back to the slot
    def allocate(self, nbytes: int) -> Allocation: ...
    def write(self, alloc: Allocation, offset: int, data: np.ndarray) -> None: ...
    def read(self, alloc: Allocation, offset: int, nbytes: int) -> np.ndarray: ...
    def fill(self, alloc: Allocation, offset: int, nbytes: int, pattern: np.ndarray) -> None: ...
    def free(self, alloc: Allocation) -> None: ...
    def set_schedule(self, schedule: str, observe: bool = False) -> None: ...   # observe: every access checked (CPU)
    def name(self, alloc: Allocation, payload_offset: int, nbytes: int, name: str, element: int) -> None: ...
    def observations(self) -> tuple[list, list]: ...   # (AccessRecord, TrafficRecord) lists of an observed call
    def call_solve(self, args: list) -> RunError | None: ...
    def launches(self) -> list[Launch]: ...
    def printf_output(self) -> tuple[str, int]: ...   # kernel printf since reset(): its head, and its bytes in all
    def reset(self) -> None: ...
    def device_failure(self, exc: BaseException) -> bool: ...   # a driver error, not a judge bug


class TimedBackend(Backend, Protocol):
    """What timing (judge/runner/timing.py) needs beyond a Backend: only the GPU backend is one."""
    cp: object           # the CuPy module
    stream: object       # the stream solve() runs on
    kernels: object      # the judge's own kernels (judge.backends.gpu_kernels.GpuKernels)

    def device_view(self, alloc: Allocation, offset: int, count: int, dtype): ...   # a CuPy array, no copy
    def call_solve_async(self, args: list) -> None: ...      # enqueued; errors come from pending_error()
    def pending_error(self) -> RunError | None: ...
    def profile_call(self, args: list) -> list[Launch]: ...  # one call with an event pair around every launch
    def timed_mode(self, on: bool) -> None: ...              # on: no synchronization after every launch
    # Between files and the device: nbytes of a file at offset, to or from alloc at start.
    def copy_in(self, fd: int, offset: int, alloc: Allocation, start: int, nbytes: int) -> None: ...
    def copy_out(self, fd: int, offset: int, alloc: Allocation, start: int, nbytes: int) -> None: ...
    def copy_within(self, alloc: Allocation, start: int, source: Allocation, source_start: int, nbytes: int) -> None: ...
    def copy_of(self, alloc: Allocation, start: int, nbytes: int) -> Allocation | None: ...   # None: no room
    def differs(self, copy: Allocation, alloc: Allocation, start: int) -> bool: ...   # alloc from start vs copy
    def digest(self, alloc: Allocation, start: int, nbytes: int, key: int) -> int: ...   # judge/output_digest.py


def broken_driver_message(exc: BaseException) -> str:
    """A driver failure that no launch of solve() reported: solve() broke the process's CUDA state."""
    return (f"the CUDA driver failed after solve() ran ({exc}): solve() must not touch file descriptors, "
            "memory or device state that it did not create")


def solve_entry(lib: ctypes.CDLL, problem: Problem):
    """The build's entry into solve(), typed with the problem's parameters."""
    entry = getattr(lib, ENTRY_SYMBOL)
    entry.argtypes = [ctypes.c_void_p if p.is_pointer else SCALAR_CTYPES[p.dtype] for p in problem.params]
    entry.restype = None
    return entry
