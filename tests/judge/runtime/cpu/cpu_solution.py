"""A CPU build loaded with ctypes: its solve_* entry points called on NumPy buffers, and the
cudajudge_cpu_* ABI (judge/runtime/cpu/cudajudge_cpu_abi.h) read back."""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

from judge.backends.base import Launch
from judge.backends.cpu import CpuLaunch
from judge.compilation.cpu_build import build_cpu

HERE = Path(__file__).resolve().parent

FORWARD, REVERSE, RANDOM = 0, 1, 2
OK, RE, MLE, DEADLOCK = 0, 1, 2, 3


def build(name: str, *, asan: bool = False) -> Path:
    """Builds tests/judge/runtime/cpu/<name> and returns the library; fails the test on a compile error."""
    built = build_cpu((HERE / name).read_text(), filename=name, asan=asan)
    info, library = built.compile, built.library
    assert info.ok, info.log
    return library


def line_of(name: str, marker: str) -> int:
    """The 1-based line of the first line of tests/judge/runtime/cpu/<name> containing marker."""
    for number, line in enumerate((HERE / name).read_text().splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError(f"{marker!r} is not in {name}")


def _argument(value):
    if isinstance(value, np.ndarray):
        return ctypes.c_void_p(value.ctypes.data)
    if isinstance(value, float):
        return ctypes.c_float(value)
    if isinstance(value, int):
        return ctypes.c_int(value)
    return value


class CpuSolution:
    def __init__(self, library: Path):
        self.lib = ctypes.CDLL(str(library))
        for name in ("cudajudge_cpu_error_kind", "cudajudge_cpu_error_message"):
            getattr(self.lib, name).restype = ctypes.c_char_p
        for name in ("cudajudge_cpu_launch_count", "cudajudge_cpu_printf_size", "cudajudge_cpu_printf_read",
                     "cudajudge_cpu_printf_dropped"):
            getattr(self.lib, name).restype = ctypes.c_uint64
        self.lib.cudajudge_cpu_error_launch.restype = ctypes.c_int64
        self.lib.cudajudge_cpu_launch_record.argtypes = [ctypes.c_uint64, ctypes.POINTER(CpuLaunch)]
        self.lib.cudajudge_cpu_set_schedule.argtypes = [ctypes.c_int, ctypes.c_uint64]
        for name in ("cudajudge_cpu_set_arena_bytes", "cudajudge_cpu_set_printf_cap", "cudajudge_cpu_set_stack_bytes"):
            getattr(self.lib, name).argtypes = [ctypes.c_uint64]
        self.lib.cudajudge_cpu_printf_read.argtypes = [ctypes.c_char_p, ctypes.c_uint64]

    def call(self, entry: str, *args) -> int:
        return getattr(self.lib, entry)(*map(_argument, args))

    def reset(self) -> None:
        self.lib.cudajudge_cpu_reset()

    def set_schedule(self, order: int, seed: int = 0) -> None:
        self.lib.cudajudge_cpu_set_schedule(order, seed)

    def set_threads(self, count: int) -> None:
        self.lib.cudajudge_cpu_set_threads(count)

    def threads(self) -> int:
        return self.lib.cudajudge_cpu_threads()

    def verdict(self) -> int:
        return self.lib.cudajudge_cpu_verdict()

    def error_kind(self) -> str:
        return self.lib.cudajudge_cpu_error_kind().decode()

    def error_message(self) -> str:
        return self.lib.cudajudge_cpu_error_message().decode()

    def error_launch(self) -> int:
        return self.lib.cudajudge_cpu_error_launch()

    def launches(self) -> list[Launch]:
        out = []
        for index in range(self.lib.cudajudge_cpu_launch_count()):
            record = CpuLaunch()
            assert self.lib.cudajudge_cpu_launch_record(index, ctypes.byref(record)) == 0
            out.append(Launch(record.kernel.decode(), tuple(record.grid), tuple(record.block), record.shared_bytes,
                              record.line, status=record.status))
        return out

    def printf_output(self) -> str:
        size = self.lib.cudajudge_cpu_printf_size()
        buffer = ctypes.create_string_buffer(size + 1)
        copied = self.lib.cudajudge_cpu_printf_read(buffer, size)
        return buffer.raw[:copied].decode()

    def printf_dropped(self) -> int:
        return self.lib.cudajudge_cpu_printf_dropped()
