// expect: WA
// The per-tile digit counts are stored tile-major (counts[tile * 16 + digit]) and then scanned: the scan now puts all of tile 0 before tile 1 instead of all keys with digit 0 before those with digit 1, so the tiles never interleave.
// LSD radix sort, 4 bits per pass, 8 passes, ping-pong between a scratch buffer and output.
// Every pass, over tiles of 4096 keys (256 threads x 16 consecutive keys each):
//   1. digit_counts: each tile counts its 16 digits into counts[digit * tiles + tile];
//   2. an exclusive scan of counts (digit-major, then tile) gives, for every (digit, tile),
//      where that tile's keys with that digit start in the output of the pass;
//   3. scatter: each tile sorts itself by the digit in shared memory, stably (digit, then thread,
//      then the thread's own order = the tile order), and writes each digit's run to its place.
// Stability of every pass is what makes the later passes keep the order of the earlier ones.
#include <cuda_runtime.h>

constexpr int kBits = 4;
constexpr int kDigits = 1 << kBits;
constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;          // 4096 keys per block
constexpr int kScanTile = 1024;                   // elements per block of the counts scan
constexpr unsigned kFull = 0xffffffffu;

// Shared arrays read with a stride of 16 words get one pad word every 32 (no bank conflicts).
__device__ __forceinline__ int pad(int j) { return j + (j >> 5); }

__device__ __forceinline__ unsigned warp_inclusive_scan(unsigned v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void digit_counts(const unsigned int* keys, unsigned int* counts, int n, int shift, int tiles) {
    __shared__ unsigned int c[kDigits];
    if (threadIdx.x < kDigits) c[threadIdx.x] = 0;
    __syncthreads();
    const size_t base = (size_t)blockIdx.x * kTile;
    for (int j = threadIdx.x; j < kTile; j += kThreads) {
        const size_t i = base + j;
        if (i < (size_t)n) atomicAdd(&c[(keys[i] >> shift) & (kDigits - 1)], 1u);
    }
    __syncthreads();
    if (threadIdx.x < kDigits) counts[(size_t)blockIdx.x * kDigits + threadIdx.x] = c[threadIdx.x];   // BUG: tile-major
}

// ---- exclusive scan of the counts (in place), three passes with 1024-element tiles ----------

__global__ void scan_tiles(unsigned int* data, unsigned int* tile_sums, int n) {
    __shared__ unsigned int warp_part[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const size_t i = (size_t)blockIdx.x * kScanTile + threadIdx.x;
    const unsigned x = i < (size_t)n ? data[i] : 0u;
    const unsigned incl = warp_inclusive_scan(x, lane);
    if (lane == 31) warp_part[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        const unsigned w = warp_part[lane];
        const unsigned s = warp_inclusive_scan(w, lane);
        warp_part[lane] = s - w;
        if (lane == 31 && tile_sums != nullptr) tile_sums[blockIdx.x] = s;
    }
    __syncthreads();
    if (i < (size_t)n) data[i] = warp_part[warp] + incl - x;
}

__global__ void add_offsets(unsigned int* data, const unsigned int* tile_offsets, int n) {
    const size_t i = (size_t)(blockIdx.x + 1) * kScanTile + threadIdx.x;
    if (i < (size_t)n) data[i] += tile_offsets[blockIdx.x + 1];
}

static void exclusive_scan(unsigned int* data, int n, unsigned int* scratch) {
    const int tiles = (n + kScanTile - 1) / kScanTile;
    if (tiles == 1) {
        scan_tiles<<<1, kScanTile>>>(data, nullptr, n);
        return;
    }
    scan_tiles<<<tiles, kScanTile>>>(data, scratch, n);
    exclusive_scan(scratch, tiles, scratch + tiles);
    add_offsets<<<tiles - 1, kScanTile>>>(data, scratch, n);
}

// ---- the stable scatter of one pass ---------------------------------------------------------

__global__ void __launch_bounds__(kThreads)
scatter(const unsigned int* in, unsigned int* out, const unsigned int* offsets, int n, int shift, int tiles) {
    __shared__ unsigned int keys[kTile + kTile / 32];
    __shared__ unsigned int table[kDigits * kThreads + kDigits * kThreads / 32];   // [digit][thread]
    __shared__ unsigned int warp_part[kThreads / 32];
    __shared__ unsigned int digit_base[kDigits];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const size_t base = (size_t)blockIdx.x * kTile;
    const int count = (int)min((size_t)kTile, (size_t)n - base);

    for (int j = t; j < count; j += kThreads) keys[pad(j)] = in[base + j];     // coalesced load
    __syncthreads();

    // Each thread takes 16 consecutive keys of the tile and counts their digits in its column.
    unsigned int mine[kItems];
#pragma unroll
    for (int d = 0; d < kDigits; ++d) table[pad(d * kThreads + t)] = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const int j = t * kItems + k;
        mine[k] = j < count ? keys[pad(j)] : 0u;
        if (j < count) table[pad(((mine[k] >> shift) & (kDigits - 1)) * kThreads + t)] += 1;
    }
    __syncthreads();

    // Exclusive scan of the table in digit-major order: entry (d, t) becomes the tile-local
    // position of thread t's first key with digit d. Thread t scans the 16 entries t*16..t*16+15.
    unsigned sum = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) sum += table[pad(t * kItems + k)];
    const unsigned incl = warp_inclusive_scan(sum, lane);
    if (lane == 31) warp_part[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        const unsigned w = lane < kThreads / 32 ? warp_part[lane] : 0u;
        const unsigned s = warp_inclusive_scan(w, lane);
        if (lane < kThreads / 32) warp_part[lane] = s - w;
    }
    __syncthreads();
    unsigned run = warp_part[warp] + incl - sum;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned v = table[pad(t * kItems + k)];
        table[pad(t * kItems + k)] = run;
        run += v;
    }
    __syncthreads();

    // Global position of local position j with digit d: offsets[d][tile] + (j - local start of d).
    if (t < kDigits) digit_base[t] = offsets[(size_t)blockIdx.x * kDigits + t] - table[pad(t * kThreads)];
    __syncthreads();

    // Local stable sort by the digit: keys go back into shared memory at their sorted positions.
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        if (t * kItems + k < count) {
            const int slot = pad(((mine[k] >> shift) & (kDigits - 1)) * kThreads + t);
            const unsigned pos = table[slot];
            table[slot] = pos + 1;
            keys[pad(pos)] = mine[k];
        }
    }
    __syncthreads();

    // Each digit's keys are now contiguous in the tile and go to a contiguous run of out.
    for (int j = t; j < count; j += kThreads) {
        const unsigned key = keys[pad(j)];
        out[(size_t)(digit_base[(key >> shift) & (kDigits - 1)] + (unsigned)j)] = key;
    }
}

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    if (N <= 0) return;
    const int tiles = (N + kTile - 1) / kTile;
    const int ncounts = kDigits * tiles;
    size_t scan_scratch = 0;
    for (long long m = ncounts; m > kScanTile;) {
        m = (m + kScanTile - 1) / kScanTile;
        scan_scratch += (size_t)m;
    }
    unsigned int* tmp = nullptr;
    const size_t words = (size_t)N + (size_t)ncounts + scan_scratch;
    if (cudaMalloc(&tmp, words * sizeof(unsigned int)) != cudaSuccess) return;
    unsigned int* counts = tmp + N;
    unsigned int* scratch = counts + ncounts;

    const unsigned int* src = input;
    for (int shift = 0; shift < 32; shift += kBits) {
        unsigned int* dst = (src == tmp) ? output : tmp;
        digit_counts<<<tiles, kThreads>>>(src, counts, N, shift, tiles);
        exclusive_scan(counts, ncounts, scratch);
        scatter<<<tiles, kThreads>>>(src, dst, counts, N, shift, tiles);
        src = dst;
    }
    if (src != output)   // an even number of passes ends in output; kept for other digit widths
        cudaMemcpy(output, src, (size_t)N * sizeof(unsigned int), cudaMemcpyDeviceToDevice);
    cudaFree(tmp);
}
