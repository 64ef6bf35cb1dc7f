"""Which input sets' timed calls left outputs that differ, bit for bit, from their first call's.

Every timed call's outputs are checked. One compare launch per sample (judge.backends.gpu_kernels)
reads each output of the sample's sets and its first output once, and raises the set's flag on any
difference. It is enqueued after the sample's end event, so the flags are ready when the sample's
one synchronization returns, and only a set whose flag rose is checked against the reference.
"""
from __future__ import annotations

import numpy as np

from judge.backends.base import TimedBackend


class SameBits:
    """outputs[k] and golden[k]: set k's output arrays and their first call's copies, by name, on the
    device of `backend`."""

    def __init__(self, backend: TimedBackend, outputs: list[dict], golden: list[dict]):
        self._per_set = len(outputs[0]) if outputs else 0
        self._compare = backend.kernels.differs_rows(
            [(view.data.ptr, golden[k][name].data.ptr, view.nbytes, k)
             for k, views in enumerate(outputs) for name, view in views.items()])
        self.flags = backend.cp.zeros(len(outputs), backend.cp.int32)

    def enqueue(self, ks: list[int]) -> None:
        """Compare the outputs of sets ks: consecutive sets, wrapping around after the last (a rotation)."""
        if ks != [(ks[0] + i) % len(self.flags) for i in range(len(ks))]:
            raise ValueError(f"sets {ks} are not consecutive")
        self.flags.data.memset_async(0, self.flags.nbytes)
        self._compare(ks[0] * self._per_set, len(ks) * self._per_set, self.flags)

    def raised(self) -> list[int]:
        """The sets whose flag rose; read once the enqueued kernels have run."""
        return np.flatnonzero(self.flags.get()).tolist()
