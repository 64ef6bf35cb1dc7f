// Single-pass exclusive scan with decoupled look-back (the idea behind CUB's DeviceScan).
// Each block scans one 2048-element tile and publishes its result in a status word:
//   AGGREGATE - the tile's own total is known;
//   PREFIX    - the sum of everything up to and including this tile is known.
// A block first publishes its aggregate, then walks back over the tiles before it (one warp,
// 32 tiles per step), adding aggregates until it meets a PREFIX, and publishes its own PREFIX. The input is read once and
// the output written once (8n bytes), so the scan runs at close to copy speed.
//
// Tiles are numbered in the order blocks START (an atomic counter), not by blockIdx: a block
// only ever waits for tiles that belong to blocks which are already running, so it cannot wait
// on a block that never gets scheduled.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kItems = 8;                       // consecutive elements per thread
constexpr int kTile = kThreads * kItems;        // 2048 elements per tile
constexpr unsigned kFull = 0xffffffffu;

constexpr unsigned long long kAggregate = 1ull << 32;   // flag in the high word, value in the low
constexpr unsigned long long kPrefix = 2ull << 32;

// Shared-memory index with one padding slot per 32: a thread's 8 consecutive elements then lie
// in 8 different banks, and the 32 threads of a warp hit 32 different banks.
__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void __launch_bounds__(kThreads)
scan_lookback(const int* __restrict__ in, int* __restrict__ out, int n,
              unsigned long long* status, unsigned int* tile_counter) {
    __shared__ int items[kTile + kTile / 32];
    __shared__ int warp_base[kThreads / 32];
    __shared__ int tile_shared;
    __shared__ int tile_prefix;

    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    if (t == 0) tile_shared = (int)atomicAdd(tile_counter, 1u);
    __syncthreads();
    const int tile = tile_shared;
    const long long base = (long long)tile * kTile;

    // 1. Coalesced load (element k*256 + t of the tile), then each thread takes 8 in a row.
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k * kThreads + t;
        items[padded(k * kThreads + t)] = i < n ? in[i] : 0;
    }
    __syncthreads();
    int v[kItems];
    int thread_sum = 0;
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
        v[j] = items[padded(t * kItems + j)];
        thread_sum += v[j];
    }

    // 2. Block scan of the thread sums: warp scans, then a scan of the 8 warp totals.
    const int inclusive = warp_inclusive_scan(thread_sum, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = lane < kThreads / 32 ? warp_base[lane] : 0;
        const int scanned = warp_inclusive_scan(total, lane);
        if (lane < kThreads / 32) warp_base[lane] = scanned - total;
        const int aggregate = __shfl_sync(kFull, scanned, kThreads / 32 - 1);   // the tile's total

        // 3. Publish, look back (the whole warp inspects 32 earlier tiles at a time), publish.
        if (lane == 0)
            atomicExch(&status[tile], (tile == 0 ? kPrefix : kAggregate) | (unsigned)aggregate);
        int prefix = 0;
        if (tile > 0) {
            for (int newest = tile - 1;; newest -= 32) {
                const int j = newest - lane;                  // lane 0 looks at the nearest tile
                unsigned long long s = kPrefix;               // "before tile 0" counts as prefix 0
                if (j >= 0) {
                    do {
                        s = *(volatile unsigned long long*)&status[j];
                    } while ((s >> 32) == 0);                 // tile j has not published yet
                }
                const unsigned prefixes = __ballot_sync(kFull, (s >> 32) == 2);
                const int last = prefixes ? __ffs(prefixes) - 1 : 31;   // nearest inclusive prefix
                int value = lane <= last ? (int)(unsigned)s : 0;
#pragma unroll
                for (int d = 16; d > 0; d >>= 1) value += __shfl_xor_sync(kFull, value, d);
                prefix += value;
                if (prefixes) break;
            }
            if (lane == 0) atomicExch(&status[tile], kPrefix | (unsigned)(prefix + aggregate));
        }
        if (lane == 0) tile_prefix = prefix;
    }
    __syncthreads();

    // 4. Exclusive values for this thread's 8 elements, back through shared memory for a
    //    coalesced store.
    int running = tile_prefix + warp_base[warp] + inclusive - thread_sum;
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
        items[padded(t * kItems + j)] = running;
        running += v[j];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k * kThreads + t;
        if (i < n) out[i] = items[padded(k * kThreads + t)];
    }
}

extern "C" void solve(const int* input, int* output, int n) {
    if (n <= 0) return;
    const int tiles = (int)(((long long)n + kTile - 1) / kTile);
    // Scratch: one status word per tile, then the tile counter; all of it must start at zero.
    const size_t bytes = (size_t)tiles * sizeof(unsigned long long) + sizeof(unsigned long long);
    void* scratch = nullptr;
    if (cudaMalloc(&scratch, bytes) != cudaSuccess) return;
    cudaMemsetAsync(scratch, 0, bytes);
    unsigned long long* status = static_cast<unsigned long long*>(scratch);
    unsigned int* counter = reinterpret_cast<unsigned int*>(status + tiles);
    scan_lookback<<<tiles, kThreads>>>(input, output, n, status, counter);
    cudaFree(scratch);
}
