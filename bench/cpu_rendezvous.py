"""What the CPU backend's emulation costs per event, on one core: a __syncthreads() and a shuffle per
thread, a thread's life with 0, 1 and 3 barriers, and a catalog solution's call under the memory
observer (the small tests' first call) against a plain one.

    python bench/cpu_rendezvous.py [--repeat K]

Each figure is the best of K runs after a warm-up, results checked. Printed figures, not pass/fail.
"""
from __future__ import annotations

import argparse
import ctypes
import sys

import numpy as np

from cpu_backend import REPO, best_time, pointer
from judge.compilation.cpu_build import build_cpu

PRIMITIVES = r'''
#include <cuda_runtime.h>
__global__ void barriers(int* out, int rounds) {
    __shared__ int s[1024];
    int v = threadIdx.x;
    for (int i = 0; i < rounds; ++i) {
        s[threadIdx.x] = v;
        __syncthreads();
        v += s[(threadIdx.x + 1) & (blockDim.x - 1)];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
__global__ void shuffles(int* out, int rounds) {
    int v = threadIdx.x;
    for (int i = 0; i < rounds; ++i) v += __shfl_xor_sync(0xffffffffu, v, 1 + (i & 15));
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
// A thread's life: it starts, meets `rounds` barriers (0, 1 or 3) and exits.
__global__ void lives(const float* in, float* out, int rounds) {
    __shared__ float s[1024];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int r = 0; r < rounds; ++r) {
        s[threadIdx.x] = v;
        __syncthreads();
        v = s[blockDim.x - 1 - threadIdx.x];
    }
    out[i] = v;
}
extern "C" void run(int kernel, int* out, const float* in, float* fout, int blocks, int threads, int rounds) {
    if (kernel == 0) barriers<<<blocks, threads>>>(out, rounds);
    if (kernel == 1) shuffles<<<blocks, threads>>>(out, rounds);
    if (kernel == 2) lives<<<blocks, threads>>>(in, fout, rounds);
    cudaDeviceSynchronize();
}
'''

TOP_K = REPO / "problems" / "019-top-k" / "solutions" / "accepted" / "tile_topk_rounds.cu"
MATMUL = REPO / "problems" / "028-matrix-multiply" / "solutions" / "accepted" / "register_blocked_64.cu"


def library(source: str, filename: str, observed: bool = False) -> ctypes.CDLL:
    built = build_cpu(source, filename=filename, observed=observed)
    if built.library is None:
        raise SystemExit(built.compile.log)
    lib = ctypes.CDLL(str(built.library))
    lib.cudajudge_cpu_set_threads(1)
    lib.cudajudge_cpu_set_observe(int(observed))
    lib.cudajudge_cpu_name_buffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64,
                                              ctypes.c_char_p, ctypes.c_uint64]
    return lib


def primitives(repeat: int) -> None:
    lib = library(PRIMITIVES, "primitives.cu")
    n = 1 << 20
    out, x, y = np.zeros(n, np.int32), np.ones(n, np.float32), np.zeros(n, np.float32)
    for kernel, name, events_per_round in ((0, "__syncthreads()", 2), (1, "__shfl_xor_sync", 1)):
        for threads in (32, 256, 1024):
            blocks, rounds = n // threads // 8, 16
            seconds = best_time(lambda: lib.run(kernel, pointer(out), pointer(x), pointer(y), blocks, threads, rounds), repeat)
            print(f"{name:16s} {threads:5d} threads a block: {seconds / (blocks * threads * rounds * events_per_round) * 1e9:6.1f} ns "
                  f"per thread and event")
    for rounds in (0, 1, 3):
        seconds = best_time(lambda: lib.run(2, pointer(out), pointer(x), pointer(y), n // 256, 256, rounds), repeat)
        assert np.array_equal(y, x), "the thread-life kernel gave a wrong result"
        print(f"thread life, {rounds} barrier(s), 256 threads a block: {seconds / n * 1e9:6.1f} ns per thread")


def observed_calls(repeat: int) -> None:
    rng = np.random.default_rng(1)
    cases = []
    for n, k in ((2048, 1024), (65537, 1024)):
        values, top = rng.uniform(-1000, 1000, n).astype(np.float32), np.zeros(k, np.float32)
        cases.append((f"top-k N = {n}, k = {k}", TOP_K, [("input", values), ("output", top)], (n, k),
                      lambda values=values, top=top, k=k: np.array_equal(top, np.sort(values)[::-1][:k])))
    size = 256
    a, b, c = (rng.uniform(-1, 1, size * size).astype(np.float32) for _ in range(3))
    cases.append((f"register-blocked matmul {size}^3", MATMUL, [("A", a), ("B", b), ("C", c)], (size, size, size),
                  lambda: np.allclose(c.reshape(size, size), a.reshape(size, size) @ b.reshape(size, size), atol=1e-3)))
    for name, path, buffers, scalars, correct in cases:
        seconds = {}
        for observed in (False, True):
            lib = library(path.read_text(), path.name, observed)
            for label, array in buffers:
                lib.cudajudge_cpu_name_buffer(array.ctypes.data, array.nbytes, 0, 0, label.encode(), array.itemsize)
            args = [pointer(array) for _, array in buffers] + [ctypes.c_int(s) for s in scalars]
            seconds[observed] = best_time(lambda: (lib.solve(*args), lib.cudajudge_cpu_reset()), repeat)
            assert correct(), f"{name} gave a wrong result"
        print(f"{name:36s} plain {seconds[False] * 1e3:8.1f} ms   observed {seconds[True] * 1e3:8.1f} ms   "
              f"({seconds[True] / seconds[False]:.1f}x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("one OS thread; ns and ms of wall time")
    primitives(args.repeat)
    observed_calls(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
