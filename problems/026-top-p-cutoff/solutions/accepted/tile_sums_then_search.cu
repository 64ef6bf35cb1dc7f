// Multi-block: reduce, then search.
//   1. tile_sums: every block sums a tile of 4096 probabilities (16 per thread, warp shuffles);
//   2. find_cutoff (one block): walks the tile sums with a block scan and a carry until the
//      running total reaches p - that tile holds the answer - then scans that one tile the
//      same way to find the first element whose prefix sum reaches p.
// Only 4N bytes are read by the many blocks; the single block reads N / 1024 sums and one tile.
// All partial sums are exact (multiples of 2^-20 up to 1), so the two passes agree.
#include <cuda_runtime.h>

constexpr int kTileThreads = 256;
constexpr int kPerThread = 16;
constexpr int kTile = kTileThreads * kPerThread;   // 4096
constexpr int kSearchThreads = 1024;
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kTileThreads)
tile_sums(const float* __restrict__ probs, float* sums, int N) {
    __shared__ float warp_sums[kTileThreads / 32];
    const long long base = (long long)blockIdx.x * kTile;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
        const long long i = base + k * kTileThreads + threadIdx.x;   // coalesced
        if (i < N) s += probs[i];
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(kFull, s, d);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < kTileThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(kFull, s, d);
        if (threadIdx.x == 0) sums[blockIdx.x] = s;
    }
}

__device__ __forceinline__ float warp_inclusive_sum(float v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// Finds the first index i in [begin, end) whose prefix sum carry + x[begin] + ... + x[i]
// reaches p; returns it and sets carry to the sum before it (carry + x[begin] + ... + x[i-1]).
// Returns end if there is none, with the whole range added to carry.
// Every thread of the block calls it and gets the same result.
__device__ int first_reaching(const float* x, int begin, int end, float p, float& carry) {
    __shared__ float warp_base[32];
    __shared__ float chunk_total;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (int start = begin; start < end; start += kSearchThreads) {
        const int i = start + t;
        const float v = i < end ? x[i] : 0.0f;
        const float inclusive = warp_inclusive_sum(v, lane);
        if (lane == 31) warp_base[warp] = inclusive;
        __syncthreads();
        if (warp == 0) {
            const float w = warp_base[lane];
            const float scanned = warp_inclusive_sum(w, lane);
            warp_base[lane] = scanned - w;
            if (lane == 31) chunk_total = scanned;
        }
        __syncthreads();
        const float prefix = carry + warp_base[warp] + inclusive;
        const int below = __syncthreads_count(i < end && prefix < p);
        if (below < min(kSearchThreads, end - start)) {
            __shared__ float found_before;
            if (t == below) found_before = prefix - v;        // the sum before the found index
            __syncthreads();
            carry = found_before;
            return start + below;
        }
        carry += chunk_total;
        __syncthreads();
    }
    return end;
}

__global__ void __launch_bounds__(kSearchThreads)
find_cutoff(const float* probs, const float* sums, int num_tiles, int* cutoff, int N, float p) {
    float carry = 0.0f;
    int tile = first_reaching(sums, 0, num_tiles, p, carry);   // carry: the tiles before it
    if (tile == num_tiles) tile = num_tiles - 1;               // not reached (cannot happen)
    const int begin = tile * kTile;
    const int end = min(begin + kTile, N);
    const int i = first_reaching(probs, begin, end, p, carry);
    if (threadIdx.x == 0) *cutoff = min(i, N - 1) + 1;
}

extern "C" void solve(const float* probs, int* cutoff, int N, float p) {
    const int num_tiles = (N + kTile - 1) / kTile;
    float* sums = nullptr;
    if (cudaMalloc(&sums, num_tiles * sizeof(float)) != cudaSuccess) return;
    tile_sums<<<num_tiles, kTileThreads>>>(probs, sums, N);
    find_cutoff<<<1, kSearchThreads>>>(probs, sums, num_tiles, cutoff, N, p);
    cudaFree(sums);
}
