"""Event timing on a CUDA stream, with an L2 flush before every sample."""
from __future__ import annotations

import numpy as np

COPY_PROBE_BYTES = 1 << 30


class DeviceTimer:
    def __init__(self, cp, stream):
        self.cp, self.stream = cp, stream
        l2 = cp.cuda.Device().attributes["L2CacheSize"]
        self.flush_buffer = cp.empty(2 * l2, dtype=cp.uint8)
        self._flushes = 0
        self._start, self._end = cp.cuda.Event(), cp.cuda.Event()

    def flush_l2(self) -> None:
        """A memset, as nvbench flushes: 0.04 ms for an H200's 2 × 60 MB, where CuPy's fill, a byte
        per thread, took 0.6 ms of every sample."""
        self._flushes += 1
        self.flush_buffer.data.memset_async(self._flushes & 0xFF, self.flush_buffer.nbytes, self.stream)

    def time(self, call, then=None) -> float:
        """Seconds between two events around call(). then() enqueues work after the end event (the
        sample's checks), done by the time this returns: one synchronization per sample."""
        self.flush_l2()
        self._start.record(self.stream)
        call()
        self._end.record(self.stream)
        if then is not None:
            then()
        self.stream.synchronize()
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
