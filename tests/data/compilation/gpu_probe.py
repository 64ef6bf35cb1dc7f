"""Run a built submission on the GPU the way the harness does, and print what happened as JSON.

usage: gpu_probe.py LIBRARY CUBIN N [--checked] [--profiled] [--arena-bytes B]
Loads LIBRARY with ctypes in this process, which holds a CuPy context; input is 0..N-1 (int32).
"""
from __future__ import annotations

import argparse
import ctypes
import json

import cupy as cp


class LaunchInfo(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_char_p), ("lowered", ctypes.c_char_p), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint * 3), ("shared_bytes", ctypes.c_size_t), ("line", ctypes.c_int),
                ("status", ctypes.c_int), ("elapsed_ms", ctypes.c_float)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("cubin")
    parser.add_argument("n", type=int)
    parser.add_argument("--checked", action="store_true")
    parser.add_argument("--profiled", action="store_true")
    parser.add_argument("--arena-bytes", type=int, default=64 << 20)
    args = parser.parse_args()

    cp.cuda.Device(0).use()
    stream = cp.cuda.Stream(non_blocking=True)
    arena = cp.cuda.alloc(max(args.arena_bytes, 1))
    lib = ctypes.CDLL(args.library)
    lib.cudajudge_init.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_ulonglong, ctypes.c_size_t, ctypes.c_void_p]
    lib.cudajudge_arena_in_use.restype = ctypes.c_size_t
    lib.solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    cubin = open(args.cubin, "rb").read()
    message = ctypes.create_string_buffer(2048)
    report: dict = {"init": lib.cudajudge_init(cubin, len(cubin), arena.ptr, args.arena_bytes, stream.ptr)}
    if report["init"] == 0:
        lib.cudajudge_set_checked_launches(1 if args.checked else 0)
        lib.cudajudge_set_profiled_launches(1 if args.profiled else 0)
        x = cp.arange(args.n, dtype=cp.int32)
        y = cp.zeros(args.n, dtype=cp.int32)
        cp.cuda.Device(0).synchronize()
        lib.solve(x.data.ptr, y.data.ptr, args.n)
        try:
            stream.synchronize()
            report["output"] = cp.asnumpy(y).tolist()
        except cp.cuda.runtime.CUDARuntimeError as exc:   # a sticky fault: the context is gone
            report["fault"] = str(exc)
        launches = []
        for i in range(lib.cudajudge_launch_count()):
            info = LaunchInfo()
            lib.cudajudge_launch_record(i, ctypes.byref(info))
            launches.append({"kernel": info.kernel.decode(), "grid": list(info.grid), "block": list(info.block),
                             "shared": info.shared_bytes, "line": info.line, "status": info.status,
                             "elapsed_ms": info.elapsed_ms})
        report["launches"] = launches
        report["memory_exceeded"] = lib.cudajudge_memory_exceeded()
        report["arena_in_use"] = lib.cudajudge_arena_in_use()
    report["error"] = lib.cudajudge_last_error_message(message, len(message))
    report["message"] = message.value.decode()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
