"""Throughput of the CPU backend on the solutions the CPU runtime tests check.

    python bench/cpu_backend.py [--threads N] [--repeat K]

Prints emulated CUDA threads per second for a barrier-free map (ReLU over 2^24 floats in
256-thread blocks) and the time of a three-pass multi-block exclusive scan of 10^6 ints (tiles of
1024 threads with barriers). Each figure is the best of K runs after a warm-up, results checked.
"""
from __future__ import annotations

import argparse
import ctypes
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.compilation.cpu_build import build_cpu  # noqa: E402
from judge.compilation.cpu_runtime import compiler_version  # noqa: E402

SOLUTIONS = REPO / "tests" / "judge" / "runtime" / "cpu" / "correct_kernels.cu"
MAP_TARGET = 20e6          # emulated threads per second
SCAN_TARGET_S = 2.0


def best_time(call, repeat: int) -> float:
    call()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def pointer(array: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(array.ctypes.data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=0, help="OS threads running blocks (0: all cores)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    built = build_cpu(SOLUTIONS.read_text(), filename=SOLUTIONS.name)

    info, library = built.compile, built.library
    if library is None:
        print(info.log, file=sys.stderr)
        return 1
    lib = ctypes.CDLL(str(library))
    lib.cudajudge_cpu_set_threads(args.threads)
    print(f"CPU backend: {lib.cudajudge_cpu_threads()} OS threads, g++ {compiler_version()}")

    n = 1 << 24
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.empty_like(x)
    seconds = best_time(lambda: lib.solve_relu(pointer(x), pointer(y), ctypes.c_int(n)), args.repeat)
    assert np.array_equal(y, np.maximum(x, 0)), "the map gave a wrong result"
    rate = n / seconds
    print(f"map   ReLU, 2^24 floats, 256-thread blocks, no barriers: {rate / 1e6:7.1f} M emulated threads/s "
          f"({seconds:.3f} s)   target >= {MAP_TARGET / 1e6:.0f} M/s   {'ok' if rate >= MAP_TARGET else 'MISSED'}")

    n = 10 ** 6
    values = np.random.default_rng(1).integers(-16, 17, n, dtype=np.int32)
    out = np.empty_like(values)
    seconds = best_time(lambda: lib.solve_scan(pointer(values), pointer(out), ctypes.c_int(n)), args.repeat)
    assert np.array_equal(out, np.concatenate([[0], np.cumsum(values)[:-1]])), "the scan gave a wrong result"
    print(f"scan  3-pass exclusive scan, n = 10^6, 1024-thread tiles with barriers: {seconds:.3f} s "
          f"({n / seconds / 1e6:.1f} M elements/s)   target <= {SCAN_TARGET_S:.0f} s   "
          f"{'ok' if seconds <= SCAN_TARGET_S else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
