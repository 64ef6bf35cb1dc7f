"""Event timing on a CUDA stream, with an L2 flush before every sample.

The stream is held while a sample's calls are enqueued, as nvbench holds it: a one-thread kernel
before the start event spins until the host has issued the whole batch, so calls shorter than their
issuing from the host (a baseline of CuPy calls dispatched from Python: 20 µs each, for a 14 µs
cupy.sum) run back to back and are timed as the device runs them. A call that waits for the device
(a cudaMemcpy to the host, a cudaFree) would wait for the hold: the hold gives up after HOLD_TIMEOUT_NS,
that sample is timed as issued, and the timer stops holding.
"""
from __future__ import annotations

import numpy as np

COPY_PROBE_BYTES = 1 << 30
HOLD_TIMEOUT_NS = 50_000_000
HOLD_SOURCE = r"""
__device__ unsigned long long now_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// flags[0]: set by the host once the sample is enqueued; flags[1]: set here when the wait gave up.
extern "C" __global__ void cudajudge_hold(volatile int* flags, unsigned long long timeout_ns) {
    const unsigned long long began = now_ns();
    while (flags[0] == 0) {
        if (now_ns() - began > timeout_ns) {
            flags[1] = 1;
            return;
        }
    }
}
"""


class DeviceTimer:
    def __init__(self, cp, stream):
        self.cp, self.stream = cp, stream
        l2 = cp.cuda.Device().attributes["L2CacheSize"]
        self.flush_buffer = cp.empty(2 * l2, dtype=cp.uint8)
        self._flushes = 0
        self._start, self._end = cp.cuda.Event(), cp.cuda.Event()
        self._hold = cp.RawKernel(HOLD_SOURCE, "cudajudge_hold")
        self._hold.compile()   # here, not in a sample
        self._flags_memory = cp.cuda.alloc_pinned_memory(8)   # mapped: the kernel reads the host's write
        self._flags = np.frombuffer(self._flags_memory, np.int32, 2)
        self.holding = True

    def flush_l2(self) -> None:
        """A memset, as nvbench flushes: 0.04 ms for an H200's 2 × 60 MB, where CuPy's fill, a byte
        per thread, took 0.6 ms of every sample."""
        self._flushes += 1
        self.flush_buffer.data.memset_async(self._flushes & 0xFF, self.flush_buffer.nbytes, self.stream)

    def time(self, call, then=None) -> float:
        """Seconds between two events around call(), the stream held until call() has enqueued its work.
        then() enqueues work after the end event (the sample's checks), done by the time this returns:
        one synchronization per sample."""
        self.flush_l2()
        held = self.holding
        if held:
            self._flags[:] = 0
            with self.stream:
                self._hold((1,), (1,), (np.uint64(self._flags_memory.ptr), np.uint64(HOLD_TIMEOUT_NS)))
        self._start.record(self.stream)
        call()
        self._end.record(self.stream)
        self._flags[0] = 1
        if then is not None:
            then()
        self.stream.synchronize()
        if held and self._flags[1]:
            self.holding = False
        return self.cp.cuda.get_elapsed_time(self._start, self._end) / 1e3

    def copy_bandwidth_gbps(self) -> float:
        """Device-to-device copy, bytes read plus written per second: the speed of light for memory-bound work."""
        src = self.cp.ones(COPY_PROBE_BYTES, dtype=self.cp.uint8)
        dst = self.cp.empty_like(src)
        with self.stream:
            dst[...] = src
            times = [self.time(lambda: dst.__setitem__(Ellipsis, src)) for _ in range(5)]
        del src, dst
        return 2 * COPY_PROBE_BYTES / float(np.median(times)) / 1e9
