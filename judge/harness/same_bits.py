"""Which timed calls left outputs that differ, bit for bit, from their first call's.

Every timed call's outputs are checked. One compare kernel per output (judge.backends.gpu_kernels)
reads both buffers once and raises its call's flag on any difference. It is enqueued after the
sample's end event, so the flags are ready when the sample's one synchronization returns, and only
a call whose flag rose is checked against the reference.
"""
from __future__ import annotations

import numpy as np


class SameBits:
    """Flags for up to `slots` calls of a sample, on the device of `backend` (a DeviceMemory)."""

    def __init__(self, backend, slots: int):
        self.kernels = backend.kernels
        self.flags = backend.cp.zeros(slots, backend.cp.int32)

    def enqueue(self, calls: list[list[tuple]]) -> None:
        """calls[i]: the (output, first output) array pairs of call i; flag i rises if any pair differs."""
        self.flags.fill(0)
        for slot, pairs in enumerate(calls):
            for got, golden in pairs:
                self.kernels.differs(got.data.ptr, golden.data.ptr, got.nbytes, self.flags, slot)

    def raised(self, count: int) -> list[int]:
        """The calls whose flag rose; read once the enqueued kernels have run."""
        return np.flatnonzero(self.flags[:count].get()).tolist()
