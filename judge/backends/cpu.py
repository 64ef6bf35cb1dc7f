"""The CPU backend: the submission built with the CUDA-on-CPU runtime, buffers in host memory.

Each test runs once per thread order (forward, reverse, seeded random): results that differ
between orders reveal a race that a GPU would show only sometimes.
"""
from __future__ import annotations

import ctypes
import mmap
import zlib
from pathlib import Path

import numpy as np

from judge.backends.base import Allocation, Launch, RunError, solve_entry
from judge.compilation.debug_lines import with_source_lines
from judge.entry import ENTRY_SYMBOL
from judge.problems.model import Problem
from judge.protocol import AccessRecord, TrafficRecord

ORDERS = {"forward": 0, "reverse": 1, "random": 2}
VERDICTS = {0: None, 1: "RE", 2: "MLE", 3: "TLE", 4: "WA"}
PRINTF_HEAD_BYTES = 4096   # of a call's kernel printf, sent to the judge side (judge.checking.console)
MAP_FIXED = 0x10
MAP_NORESERVE = 0x4000
# Inaccessible address space on each side of a placed buffer: a write up to this far past either end
# faults (a host memset through a device pointer, an index off by a whole row of a big matrix).
PLACED_GUARD_BYTES = 64 << 20
PROT_NONE = 0
MAP_FAILED = ctypes.c_void_p(-1).value

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


class CpuLaunch(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_char_p), ("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3),
                ("shared_bytes", ctypes.c_uint64), ("line", ctypes.c_int32), ("status", ctypes.c_int32)]


def _load(problem: Problem, library: Path) -> ctypes.CDLL:
    """A CPU build with its solve() and ABI (judge/runtime/cpu/cudajudge_cpu_abi.h) typed."""
    lib = ctypes.CDLL(str(library), mode=ctypes.RTLD_LOCAL)
    solve_entry(lib, problem)   # ctypes keeps the typed function on lib
    for name in ("cudajudge_cpu_error_kind", "cudajudge_cpu_error_message"):
        getattr(lib, name).restype = ctypes.c_char_p
    lib.cudajudge_cpu_error_launch.restype = ctypes.c_int64
    lib.cudajudge_cpu_launch_count.restype = ctypes.c_uint64
    lib.cudajudge_cpu_launch_record.argtypes = [ctypes.c_uint64, ctypes.POINTER(CpuLaunch)]
    lib.cudajudge_cpu_alloc.argtypes = [ctypes.c_uint64]
    lib.cudajudge_cpu_alloc.restype = ctypes.c_void_p
    lib.cudajudge_cpu_free.argtypes = [ctypes.c_void_p]
    lib.cudajudge_cpu_printf_size.restype = ctypes.c_uint64
    lib.cudajudge_cpu_printf_dropped.restype = ctypes.c_uint64
    lib.cudajudge_cpu_printf_read.argtypes = [ctypes.c_char_p, ctypes.c_uint64]
    lib.cudajudge_cpu_printf_read.restype = ctypes.c_uint64
    lib.cudajudge_cpu_set_schedule.argtypes = [ctypes.c_int, ctypes.c_uint64]
    lib.cudajudge_cpu_set_observe.argtypes = [ctypes.c_int]
    lib.cudajudge_cpu_name_buffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64,
                                              ctypes.c_char_p, ctypes.c_uint64]
    lib.cudajudge_cpu_forget_buffer.argtypes = [ctypes.c_void_p]
    lib.cudajudge_cpu_hints.argtypes = [ctypes.c_char_p, ctypes.c_uint64]
    lib.cudajudge_cpu_hints.restype = ctypes.c_uint64
    lib.cudajudge_cpu_set_arena_bytes.argtypes = [ctypes.c_uint64]
    lib.cudajudge_cpu_set_arena_bytes(problem.limits.arena_mb << 20)
    return lib


def fill_words(address: int, nbytes: int, pattern: np.ndarray) -> None:
    """`nbytes` of memory at `address` with a pattern of 1, 2, 4 or 8 bytes over and over, stored a word
    at a time: row by row of bytes took 27 times as long."""
    word = np.dtype(f"<u{pattern.size}")
    memory = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
    memory.view(word)[:] = pattern.view(word)[0]


class CpuBackend:
    """Two builds of the submission: the plain one, and (artifact "observed") the one whose every
    memory access the observer sees, which the small tests run on. Each call runs on one of them,
    with its own runtime state; test buffers are host memory that both see."""
    name = "cpu"
    schedules = tuple(ORDERS)
    copies_buffers = False

    def __init__(self, problem: Problem, library: Path, artifacts: dict[str, str], before_user_code):
        before_user_code()
        self.plain, self.plain_path = _load(problem, library), library
        observed = artifacts.get("observed")
        self.observed_path = Path(observed) if observed else None
        self.observed = _load(problem, self.observed_path) if observed else None
        self.lib, self.library = self.plain, library   # the build the next call runs on
        self.device = f"CPU emulation ({self.plain.cudajudge_cpu_threads()} threads)"
        self._schedule_seed = zlib.crc32(problem.slug.encode())

    # --- memory ------------------------------------------------------------------------------

    def place(self, fd: int, offset: int, span: int) -> Allocation:
        """`span` bytes of the exchange file at `offset` mapped shared, as device memory, between two
        inaccessible ranges of PLACED_GUARD_BYTES: solve() writes the very pages the judge side reads,
        and a wild write (from a kernel, or host code writing through a device pointer, which faults on
        a GPU) faults instead of landing in whatever memory lies near (reserved, not committed: free)."""
        reserved = span + 2 * PLACED_GUARD_BYTES
        base = _libc.mmap(None, reserved, PROT_NONE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if base in (None, MAP_FAILED):
            raise MemoryError(f"could not reserve {span} bytes of address space for a test buffer")
        address = _libc.mmap(base + PLACED_GUARD_BYTES, span, mmap.PROT_READ | mmap.PROT_WRITE,
                             mmap.MAP_SHARED | MAP_FIXED, fd, offset)
        if address in (None, MAP_FAILED):
            _libc.munmap(base, reserved)
            raise MemoryError(f"could not map {span} bytes of the exchange file for a test buffer")
        return Allocation(address, span, ("mapped", base, reserved))

    def upload(self, fd: int, offset: int, alloc: Allocation) -> None:
        pass   # the mapped pages are the file's: what the judge side wrote is there already

    def download(self, fd: int, offset: int, alloc: Allocation) -> None:
        pass   # the judge side reads the mapped pages themselves

    def allocate(self, nbytes: int) -> Allocation:
        """Aligned host memory with an inaccessible page on each side: a wild write faults inside
        the kernel (and is reported with its block and thread) instead of corrupting the heap."""
        address = self.plain.cudajudge_cpu_alloc(nbytes)
        if not address:
            raise MemoryError(f"could not allocate {nbytes} bytes of host memory for a test buffer")
        view = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
        return Allocation(address, nbytes, view)

    def write(self, alloc: Allocation, offset: int, data: np.ndarray) -> None:
        raw = np.ascontiguousarray(data).view(np.uint8)
        alloc.handle[offset:offset + raw.size] = raw

    def read(self, alloc: Allocation, offset: int, nbytes: int) -> np.ndarray:
        return alloc.handle[offset:offset + nbytes].copy()

    def fill(self, alloc: Allocation, offset: int, nbytes: int, pattern: np.ndarray) -> None:
        """Allocated or mapped (then the exchange file's pages, which the judge side reads)."""
        fill_words(alloc.address + offset, nbytes, pattern)

    def _libraries(self) -> list:
        return [self.plain] + ([self.observed] if self.observed is not None else [])

    def name(self, alloc: Allocation, payload_offset: int, nbytes: int, name: str, element: int) -> None:
        """The name and bounds of a placed buffer's payload (the rest of the span is guard bytes), for
        the observer and for the device-wide algorithms' checks, in each library that may run."""
        alloc.named = alloc.address + payload_offset   # the runtime keeps its own copy of the name
        for library in self._libraries():
            library.cudajudge_cpu_name_buffer(alloc.named, nbytes, payload_offset,
                                              alloc.nbytes - payload_offset - nbytes, name.encode(), element)

    def free(self, alloc: Allocation) -> None:
        if alloc.named:
            for library in self._libraries():
                library.cudajudge_cpu_forget_buffer(alloc.named)
        if isinstance(alloc.handle, tuple):
            _libc.munmap(alloc.handle[1], alloc.handle[2])
            return
        alloc.handle = None
        self.plain.cudajudge_cpu_free(ctypes.c_void_p(alloc.address))

    # --- running -------------------------------------------------------------------------------

    def set_schedule(self, schedule: str, observe: bool = False) -> None:
        observed = observe and self.observed is not None
        self.lib, self.library = (self.observed, self.observed_path) if observed else (self.plain, self.plain_path)
        self.lib.cudajudge_cpu_set_schedule(ORDERS[schedule], self._schedule_seed)
        self.lib.cudajudge_cpu_set_observe(int(observed))

    def reset(self) -> None:
        self.lib.cudajudge_cpu_reset()

    def call_solve(self, args: list) -> RunError | None:
        self.lib.cudajudge_cpu_host_code(1)   # device memory closed to solve()'s host code, as on a GPU
        try:
            getattr(self.lib, ENTRY_SYMBOL)(*args)
        finally:
            self.lib.cudajudge_cpu_host_code(0)
        verdict = VERDICTS.get(self.lib.cudajudge_cpu_verdict(), "RE")
        if verdict is None:
            dropped = self.lib.cudajudge_cpu_printf_dropped()
            if dropped:
                return RunError("OLE", f"kernel printf output flooded: {dropped} bytes past the "
                                       f"{self.lib.cudajudge_cpu_printf_size()} bytes kept were dropped")
            return None
        message = with_source_lines((self.lib.cudajudge_cpu_error_message() or b"").decode("utf-8", "replace"),
                                    self.library)
        index = self.lib.cudajudge_cpu_error_launch()
        launches = self.launches()
        launch = launches[index] if 0 <= index < len(launches) else None
        return RunError(verdict, message, sticky=False, launch=launch)

    def observations(self) -> tuple[list[AccessRecord], list[TrafficRecord]]:
        """What the observer saw of the memory accesses since the last reset: per instruction and per kernel."""
        size = self.lib.cudajudge_cpu_hints(None, 0)
        buffer = ctypes.create_string_buffer(size + 1)
        self.lib.cudajudge_cpu_hints(buffer, size)
        accesses, traffic = [], []
        for row in buffer.raw[:size].decode("utf-8", "replace").splitlines():
            fields = row.split("\t")
            if fields[0] == "access" and len(fields) == 12:
                counts = [int(f) for f in fields[5:]]
                accesses.append(AccessRecord(kernel=fields[1][:200], offset=int(fields[2], 16), space=fields[3], access=fields[4],
                                             **dict(zip(("requests", "lanes_active", "lanes_present", "sectors",
                                                         "fewest_sectors", "ways", "worst_ways"), counts))))
            elif fields[0] == "traffic" and len(fields) == 4:
                traffic.append(TrafficRecord(kernel=fields[1][:200], launches=int(fields[2]), bytes=int(fields[3])))
        return accesses[:400], traffic[:100]

    def launches(self) -> list[Launch]:
        out, record = [], CpuLaunch()
        for i in range(self.lib.cudajudge_cpu_launch_count()):
            if self.lib.cudajudge_cpu_launch_record(i, ctypes.byref(record)) != 0:
                break
            out.append(Launch((record.kernel or b"?").decode(), tuple(record.grid), tuple(record.block),
                              int(record.shared_bytes), int(record.line), status=int(record.status)))
        return out

    def device_failure(self, exc: BaseException) -> bool:
        return False

    def printf_output(self) -> tuple[str, int]:
        kept = self.lib.cudajudge_cpu_printf_size()
        size = min(kept, PRINTF_HEAD_BYTES)
        buf = ctypes.create_string_buffer(size + 1)
        n = self.lib.cudajudge_cpu_printf_read(buf, size)
        return buf.raw[:n].decode("utf-8", "ignore"), kept + self.lib.cudajudge_cpu_printf_dropped()
