"""The judge's own kernels on the GPU: fill with a repeating pattern, compare bit for bit, and digest an
output (judge/output_digest.py).

Both walk 16-byte words where the buffers allow it (the judge's are 256-byte aligned), then a byte
tail. They run around every timed sample: CuPy's elementwise fill writes one element per thread,
which on an H200 took 1.3 ms to reset 1 GiB of a float32 sentinel; and comparing with CuPy's
`==` then `all()` writes and reads a boolean per element, 1.7 ms for 1 GiB. These run near copy
bandwidth: the fill 0.27 ms for 1 GiB, the compare 0.49 ms for 1 GiB against 1 GiB.

A timed sample of short calls resets and compares the outputs of up to 64 input sets: there each
kernel runs once over a table of buffers made once on the device (RowLaunch), one grid row per
buffer, where a launch per buffer from Python took longer than the calls it surrounds.
"""
from __future__ import annotations

import numpy as np

KERNELS_SOURCE = r"""
#define EACH(i, first, n) for (unsigned long long i = (first); i < (n); i += (unsigned long long)gridDim.x * blockDim.x)

struct Span { unsigned long long address, nbytes; uint4 pattern; };          // SPAN below
struct Pair { unsigned long long a, b, nbytes; long long flag; };            // PAIR below

__device__ unsigned long long first_index() {
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ bool aligned16(const void* p) { return reinterpret_cast<unsigned long long>(p) % 16 == 0; }

__device__ void fill_span(unsigned char* out, unsigned long long nbytes, uint4 pattern) {
    const unsigned long long words = aligned16(out) ? nbytes / 16 : 0;   // the rest, byte by byte
    const unsigned char* pattern_bytes = reinterpret_cast<const unsigned char*>(&pattern);
    uint4* out16 = reinterpret_cast<uint4*>(out);
    EACH(w, first_index(), words) out16[w] = pattern;
    EACH(i, words * 16 + first_index(), nbytes) out[i] = pattern_bytes[i % 16];
}

__device__ bool span_differs(const unsigned char* a, const unsigned char* b, unsigned long long nbytes) {
    const unsigned long long words = aligned16(a) && aligned16(b) ? nbytes / 16 : 0;
    const uint4* a16 = reinterpret_cast<const uint4*>(a);
    const uint4* b16 = reinterpret_cast<const uint4*>(b);
    bool differ = false;
    #pragma unroll 4
    EACH(w, first_index(), words) {
        uint4 x = a16[w], y = b16[w];
        differ |= (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
    }
    EACH(i, words * 16 + first_index(), nbytes) differ |= a[i] != b[i];
    return differ;
}

extern "C" __global__ void cudajudge_fill(unsigned char* out, unsigned long long nbytes,
                                          unsigned int p0, unsigned int p1, unsigned int p2, unsigned int p3) {
    fill_span(out, nbytes, make_uint4(p0, p1, p2, p3));
}

// Rows first .. first + gridDim.y - 1 of the table, wrapping around after `total`.
extern "C" __global__ void cudajudge_fill_rows(const Span* spans, unsigned int first, unsigned int total) {
    const Span s = spans[(first + blockIdx.y) % total];
    fill_span(reinterpret_cast<unsigned char*>(s.address), s.nbytes, s.pattern);
}

extern "C" __global__ void cudajudge_differs_rows(const Pair* pairs, unsigned int first, unsigned int total,
                                                  int* flags) {
    const Pair p = pairs[(first + blockIdx.y) % total];
    if (span_differs(reinterpret_cast<const unsigned char*>(p.a), reinterpret_cast<const unsigned char*>(p.b),
                     p.nbytes))
        flags[p.flag] = 1;
}

__device__ unsigned long long digest_mix(unsigned long long z) {   // SplitMix64's finalizer
    z ^= z >> 30;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 27;
    z *= 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// judge/output_digest.py: the sum, modulo 2^64, of mix((index << 32 | word) ^ key) over the little-endian
// 32-bit words of `nbytes` bytes, the last word padded with zero bytes. Added into *sum (zero before).
extern "C" __global__ void cudajudge_digest(const unsigned char* data, unsigned long long nbytes,
                                            unsigned long long key, unsigned long long* sum) {
    const unsigned long long words = (nbytes + 3) / 4;
    const bool aligned = reinterpret_cast<unsigned long long>(data) % 4 == 0;
    unsigned long long acc = 0;
    EACH(i, first_index(), words) {
        unsigned int word = 0;
        if (aligned && 4 * i + 4 <= nbytes) {
            word = reinterpret_cast<const unsigned int*>(data)[i];
        } else {
            for (unsigned long long b = 4 * i; b < 4 * i + 4 && b < nbytes; ++b) word |= (unsigned int)data[b] << (8 * (b - 4 * i));
        }
        acc += digest_mix(((i << 32) | word) ^ key);
    }
    for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}
"""
SPAN = np.dtype([("address", "<u8"), ("nbytes", "<u8"), ("pattern", "<u4", (4,))])
PAIR = np.dtype([("a", "<u8"), ("b", "<u8"), ("nbytes", "<u8"), ("flag", "<i8")])
KERNEL_THREADS = 256
BLOCKS_PER_SM = 4


def _pattern_words(pattern: np.ndarray) -> np.ndarray:
    """A fill pattern (1, 2, 4 or 8 bytes) repeated over 16 bytes, as four 32-bit words."""
    raw = pattern.tobytes()
    if 16 % len(raw):
        raise ValueError(f"a fill pattern of {len(raw)} bytes does not tile 16")
    return np.frombuffer(raw * (16 // len(raw)), np.uint32)


def _units(addresses, nbytes: int) -> int:
    """What one thread of a row handles at a time: 16-byte words when all `addresses` are aligned, else bytes."""
    return nbytes // 16 if all(a % 16 == 0 for a in addresses) else nbytes


class RowLaunch:
    """A kernel over a table of rows made once on the device: launch(first, count, *extra) runs it
    on rows first … first + count − 1, wrapping around after the last, one grid row each."""

    def __init__(self, cp, kernel, rows: np.ndarray, blocks: int):
        self._kernel, self._blocks = kernel, blocks
        self._rows = cp.asarray(rows.view(np.uint8))
        self._total = np.uint32(len(rows))

    def __call__(self, first: int, count: int, *extra) -> None:
        if count:
            self._kernel((self._blocks, count), (KERNEL_THREADS,), (self._rows, np.uint32(first), self._total, *extra))


class GpuKernels:
    """The kernels, loaded once per process on the current device, launched on the current stream."""

    def __init__(self, cp):
        self.cp = cp
        module = cp.RawModule(code=KERNELS_SOURCE)
        self._fill = module.get_function("cudajudge_fill")
        self._fill_rows = module.get_function("cudajudge_fill_rows")
        self._differs_rows = module.get_function("cudajudge_differs_rows")
        self._digest = module.get_function("cudajudge_digest")
        self._most_blocks = BLOCKS_PER_SM * cp.cuda.Device().attributes["MultiProcessorCount"]
        self._patterns: dict[bytes, tuple] = {}   # the correctness pass resets every output with a few patterns

    def _blocks(self, units: int) -> int:
        return max(1, min(self._most_blocks, -(-units // KERNEL_THREADS)))

    def fill(self, address: int, nbytes: int, pattern: np.ndarray) -> None:
        """`nbytes` from `address` with `pattern` (1, 2, 4 or 8 bytes) over and over."""
        key = pattern.tobytes()
        if key not in self._patterns:
            self._patterns[key] = tuple(np.uint32(w) for w in _pattern_words(pattern))
        self._fill((self._blocks(_units((address,), nbytes)),), (KERNEL_THREADS,),
                   (np.uint64(address), np.uint64(nbytes), *self._patterns[key]))

    def fill_rows(self, spans: list[tuple[int, int, np.ndarray]]) -> RowLaunch:
        """launch(first, count) fills spans[first … first + count − 1]: (address, nbytes, pattern) each."""
        rows = np.array([(a, n, _pattern_words(p)) for a, n, p in spans], SPAN)
        return RowLaunch(self.cp, self._fill_rows, rows,
                         self._blocks(max((_units((a,), n) for a, n, _ in spans), default=0)))

    def differs_rows(self, pairs: list[tuple[int, int, int, int]]) -> RowLaunch:
        """launch(first, count, flags) raises flags[flag] (an int32 device array) for each of
        pairs[first … first + count − 1], (a, b, nbytes, flag), whose `nbytes` at `a` and at `b` differ in any bit."""
        rows = np.array(pairs, PAIR)
        return RowLaunch(self.cp, self._differs_rows, rows,
                         self._blocks(max((_units((a, b), n) for a, b, n, _ in pairs), default=0)))

    def differs(self, a: int, b: int, nbytes: int) -> bool:
        """Whether `nbytes` at `a` and at `b` differ in any bit (synchronizes)."""
        flag = self.cp.zeros(1, self.cp.int32)
        self.differs_rows([(a, b, nbytes, 0)])(0, 1, flag)
        return bool(flag.get()[0])

    def digest(self, address: int, nbytes: int, key: int) -> int:
        """judge/output_digest.py's digest of `nbytes` at `address` under `key` (synchronizes)."""
        total = self.cp.zeros(1, self.cp.uint64)
        self._digest((self._blocks(-(-nbytes // 4)),), (KERNEL_THREADS,),
                     (np.uint64(address), np.uint64(nbytes), np.uint64(key), total))
        return int(total.get()[0])
