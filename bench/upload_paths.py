"""How fast a file's bytes reach the GPU and come back, by the paths the GPU runner could take:
`python bench/upload_paths.py [MB]`. Printed figures, not pass/fail."""
import mmap
import os
import sys
import tempfile
import time

import cupy as cp
import numpy as np

nbytes = int(sys.argv[1] if len(sys.argv) > 1 else 400) << 20
fd, path = tempfile.mkstemp()
os.ftruncate(fd, nbytes)
os.pwrite(fd, np.random.default_rng(0).integers(0, 255, nbytes, dtype=np.uint8).tobytes(), 0)
dev = cp.empty(nbytes, cp.uint8)
H2D, D2H = cp.cuda.runtime.memcpyHostToDevice, cp.cuda.runtime.memcpyDeviceToHost


def timed(label, f, repeats=3):
    best = min(_once(f) for _ in range(repeats))
    print(f"{label:<46} {best * 1e3:8.1f} ms  {nbytes / best / 1e9:6.1f} GB/s", flush=True)


def _once(f):
    t = time.perf_counter()
    f()
    cp.cuda.runtime.deviceSynchronize()
    return time.perf_counter() - t


def via_map(flags, prot, direction, out_fd=fd):
    def f():
        with mmap.mmap(out_fd, nbytes, flags=mmap.MAP_SHARED | flags, prot=prot) as pages:
            view = np.frombuffer(pages, np.uint8)
            if direction == H2D:
                cp.cuda.runtime.memcpy(dev.data.ptr, view.ctypes.data, nbytes, H2D)
            else:
                cp.cuda.runtime.memcpy(view.ctypes.data, dev.data.ptr, nbytes, D2H)
            del view
    return f


def fresh_file():
    out_fd, out_path = tempfile.mkstemp()
    os.ftruncate(out_fd, nbytes)
    os.unlink(out_path)
    return out_fd


def via_pinned(direction, chunk=64 << 20):
    staging = cp.cuda.alloc_pinned_memory(chunk)
    buf = np.frombuffer(staging, np.uint8, chunk)

    def f():
        target = fresh_file() if direction == D2H else fd
        for at in range(0, nbytes, chunk):
            n = min(chunk, nbytes - at)
            if direction == H2D:
                os.preadv(target, [buf[:n]], at)
                cp.cuda.runtime.memcpy(dev.data.ptr + at, buf.ctypes.data, n, H2D)
            else:
                cp.cuda.runtime.memcpy(buf.ctypes.data, dev.data.ptr + at, n, D2H)
                os.pwritev(target, [buf[:n]], at)
        if direction == D2H:
            os.close(target)
    return f


timed("H2D from a mapping", via_map(0, mmap.PROT_READ, H2D))
timed("H2D from a populated mapping", via_map(mmap.MAP_POPULATE, mmap.PROT_READ, H2D))
timed("H2D through 64 MB pinned, pread", via_pinned(H2D))
timed("D2H into a new file's mapping", lambda: via_map(0, mmap.PROT_READ | mmap.PROT_WRITE, D2H, fresh_file())())
timed("D2H into a new file's populated mapping",
      lambda: via_map(mmap.MAP_POPULATE, mmap.PROT_READ | mmap.PROT_WRITE, D2H, fresh_file())())
timed("D2H through 64 MB pinned, pwrite", via_pinned(D2H))
os.unlink(path)
