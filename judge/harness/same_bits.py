"""Which timed calls left outputs that differ, bit for bit, from their first call's: one pass on the device.

Every timed call's outputs are checked. Compared with CuPy (an elementwise ==, then all(), then
a read of the answer) each output costs a boolean per element written and read again, and a round
trip per output; at GB sizes that was most of a sample's wall time. Here one kernel per output reads
both buffers once and raises its call's flag on any difference. It is enqueued after the sample's
end event, so the flags are ready when the sample's one synchronization returns.
"""
from __future__ import annotations

import numpy as np

SOURCE = r"""
extern "C" __global__ void cudajudge_differs(const unsigned char* a, const unsigned char* b,
                                             unsigned long long nbytes, unsigned long long words,
                                             int* flags, int slot) {
    const uint4* a16 = reinterpret_cast<const uint4*>(a);
    const uint4* b16 = reinterpret_cast<const uint4*>(b);
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    bool differ = false;
    #pragma unroll 4
    for (unsigned long long w = first; w < words; w += stride) {
        uint4 x = a16[w], y = b16[w];
        differ |= (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
    }
    for (unsigned long long i = words * 16 + first; i < nbytes; i += stride) {
        differ |= a[i] != b[i];
    }
    if (differ) flags[slot] = 1;
}
"""
THREADS = 256
BLOCKS_PER_SM = 4


class SameBits:
    """Flags for up to `slots` calls of a sample, and the kernel that raises them."""

    def __init__(self, cp, slots: int):
        self.cp = cp
        self.kernel = cp.RawKernel(SOURCE, "cudajudge_differs")
        self.flags = cp.zeros(slots, cp.int32)
        self.blocks = BLOCKS_PER_SM * cp.cuda.Device().attributes["MultiProcessorCount"]

    def enqueue(self, calls: list[list[tuple]]) -> None:
        """calls[i]: the (output, first output) array pairs of call i; flag i rises if any pair differs."""
        self.flags.fill(0)
        for slot, pairs in enumerate(calls):
            for got, golden in pairs:
                aligned = got.data.ptr % 16 == 0 and golden.data.ptr % 16 == 0
                words = got.nbytes // 16 if aligned else 0   # the rest, byte by byte
                self.kernel((self.blocks,), (THREADS,),
                            (got, golden, np.uint64(got.nbytes), np.uint64(words), self.flags, np.int32(slot)))

    def raised(self, count: int) -> list[int]:
        """The calls whose flag rose; read once the enqueued kernels have run."""
        return np.flatnonzero(self.flags[:count].get()).tolist()
