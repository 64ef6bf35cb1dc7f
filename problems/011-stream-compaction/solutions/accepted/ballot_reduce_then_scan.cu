// Stable compaction without a flags array ("reduce, then scan"), 2048-element tiles:
//   1. count_kept: every block counts the kept elements of its tile. A warp learns which of its
//      32 lanes keep their element with one __ballot_sync, and __popc of the mask is the count.
//   2. scan_counts: one block turns the tile counts into exclusive offsets (1024 at a time,
//      carrying the running total from chunk to chunk).
//   3. write_kept: every block re-reads its tile; a kept element's slot is
//      tile offset + kept in earlier rounds + kept in earlier warps + __popc(ballot of lower lanes).
// Traffic: the input is read twice, the kept elements written once, plus 8 bytes per tile.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRounds = 8;                          // 256 consecutive elements per round
constexpr int kTile = kThreads * kRounds;           // 2048 elements per block
constexpr int kScanThreads = 1024;
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kThreads) count_kept(const float* __restrict__ A, int* tile_counts, int n) {
    __shared__ int warp_count[kWarps];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long base = (long long)blockIdx.x * kTile;
    int count = 0;                                  // kept elements of this warp, over all rounds
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long i = base + r * kThreads + threadIdx.x;
        const bool keep = i < n && A[i] > 0.0f;
        count += __popc(__ballot_sync(kFull, keep));
    }
    if (lane == 0) warp_count[warp] = count;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < kWarps; ++w) total += warp_count[w];
        tile_counts[blockIdx.x] = total;
    }
}

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// One block of 1024 threads: exclusive scan of counts[0, tiles) in place.
__global__ void __launch_bounds__(kScanThreads) scan_counts(int* counts, int tiles) {
    __shared__ int warp_base[32];
    __shared__ int carry;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) carry = 0;
    for (int start = 0; start < tiles; start += kScanThreads) {
        const int i = start + threadIdx.x;
        const int x = i < tiles ? counts[i] : 0;
        const int inclusive = warp_inclusive_scan(x, lane);
        if (lane == 31) warp_base[warp] = inclusive;
        __syncthreads();                             // warp totals written; carry settled
        const int before = carry;
        if (warp == 0) {
            const int total = warp_base[lane];
            const int scanned = warp_inclusive_scan(total, lane);
            warp_base[lane] = scanned - total;
        }
        __syncthreads();                             // warp offsets ready; everyone has read carry
        if (i < tiles) counts[i] = before + warp_base[warp] + inclusive - x;
        if (threadIdx.x == kScanThreads - 1) carry = before + warp_base[warp] + inclusive;
        __syncthreads();                             // carry updated before the next chunk
    }
}

__global__ void __launch_bounds__(kThreads) write_kept(const float* __restrict__ A, const int* tile_offsets,
                                                     float* __restrict__ out, int n) {
    __shared__ int warp_count[2][kWarps];            // double-buffered: one barrier per round
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long base = (long long)blockIdx.x * kTile;
    const unsigned lower_lanes = (1u << lane) - 1u;
    int running = tile_offsets[blockIdx.x];          // slots used by everything before this round
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long i = base + r * kThreads + threadIdx.x;
        const float v = i < n ? A[i] : 0.0f;
        const bool keep = v > 0.0f;
        const unsigned mask = __ballot_sync(kFull, keep);
        if (lane == 0) warp_count[r & 1][warp] = __popc(mask);
        __syncthreads();
        int before = 0, round_total = 0;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) {
            const int c = warp_count[r & 1][w];
            before += w < warp ? c : 0;
            round_total += c;
        }
        if (keep) out[running + before + __popc(mask & lower_lanes)] = v;
        running += round_total;
    }
}

extern "C" void solve(const float* A, int N, float* out) {
    if (N <= 0) return;
    const int tiles = (int)(((long long)N + kTile - 1) / kTile);
    int* counts = nullptr;
    if (cudaMalloc(&counts, (size_t)tiles * sizeof(int)) != cudaSuccess) return;
    count_kept<<<tiles, kThreads>>>(A, counts, N);
    scan_counts<<<1, kScanThreads>>>(counts, tiles);
    write_kept<<<tiles, kThreads>>>(A, counts, out, N);
    cudaFree(counts);
}
