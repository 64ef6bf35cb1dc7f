// Stable MoE permutation, the plain way: one block per tile of 1024 tokens.
//   1. count:   each block counts its tile per expert in shared memory and stores the counts
//               expert-major: tile_counts[e * num_tiles + b];
//   2. scan:    an exclusive scan of that matrix gives where tile b's tokens of expert e start;
//   3. scatter: each block loads its tile's ids into shared memory and every thread counts the
//               earlier tokens of the tile with the same expert: that count is its rank, so
//               tokens keep their order. (O(tile) work per token - simple, not fast.)
#include <cuda_runtime.h>

constexpr int kTile = 1024;                 // tokens per block, one per thread
constexpr int kScanTile = 1024;
constexpr unsigned kFull = 0xffffffffu;

__global__ void count_tiles(const int* ids, int* tile_counts, int n, int num_experts, int num_tiles) {
    extern __shared__ int counters[];       // num_experts ints
    for (int e = threadIdx.x; e < num_experts; e += blockDim.x) counters[e] = 0;
    __syncthreads();
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;
    if (i < n) atomicAdd(&counters[ids[i]], 1);
    __syncthreads();
    for (int e = threadIdx.x; e < num_experts; e += blockDim.x)
        tile_counts[(size_t)e * num_tiles + blockIdx.x] = counters[e];
}

__global__ void scatter_tiles(const int* ids, const int* tile_offsets, int* permuted, int n, int num_tiles) {
    __shared__ int tile_ids[kTile];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kTile + t;
    tile_ids[t] = i < n ? ids[i] : -1;
    __syncthreads();
    if (i >= n) return;
    const int e = tile_ids[t];
    int rank = 0;
    for (int j = 0; j < t; ++j) rank += tile_ids[j] == e;
    permuted[tile_offsets[(size_t)e * num_tiles + blockIdx.x] + rank] = (int)i;
}

// ---- a plain exclusive scan of int[m], three passes, recursive ---------------------------

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void __launch_bounds__(kScanTile)
scan_tiles(const int* in, int* out, int* tile_sums, long long m) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long i = (long long)blockIdx.x * kScanTile + threadIdx.x;
    const int x = i < m ? in[i] : 0;
    const int inclusive = warp_inclusive_scan(x, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = warp_base[lane];
        const int scanned = warp_inclusive_scan(total, lane);
        warp_base[lane] = scanned - total;
        if (lane == 31 && tile_sums != nullptr) tile_sums[blockIdx.x] = scanned;
    }
    __syncthreads();
    if (i < m) out[i] = warp_base[warp] + inclusive - x;
}

__global__ void __launch_bounds__(kScanTile)
add_tile_offsets(int* out, const int* tile_offsets, long long m) {
    const long long i = (long long)(blockIdx.x + 1) * kScanTile + threadIdx.x;
    if (i < m) out[i] += tile_offsets[blockIdx.x + 1];
}

static void exclusive_scan(const int* in, int* out, long long m, int* scratch) {
    const long long tiles = (m + kScanTile - 1) / kScanTile;
    if (tiles == 1) {
        scan_tiles<<<1, kScanTile>>>(in, out, nullptr, m);
        return;
    }
    scan_tiles<<<(unsigned)tiles, kScanTile>>>(in, out, scratch, m);
    exclusive_scan(scratch, scratch, tiles, scratch + tiles);
    add_tile_offsets<<<(unsigned)(tiles - 1), kScanTile>>>(out, scratch, m);
}

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    if (num_tokens <= 0) return;
    const int num_tiles = (num_tokens + kTile - 1) / kTile;
    const long long cells = (long long)num_experts * num_tiles;
    size_t scratch_ints = 0;
    for (long long m = cells; m > kScanTile;) {
        m = (m + kScanTile - 1) / kScanTile;
        scratch_ints += (size_t)m;
    }
    int* matrix = nullptr;
    if (cudaMalloc(&matrix, (cells + scratch_ints + 1) * sizeof(int)) != cudaSuccess) return;
    count_tiles<<<num_tiles, kTile, num_experts * sizeof(int)>>>(expert_ids, matrix, num_tokens, num_experts,
                                                                 num_tiles);
    exclusive_scan(matrix, matrix, cells, matrix + cells);
    scatter_tiles<<<num_tiles, kTile>>>(expert_ids, matrix, permuted, num_tokens, num_tiles);
    cudaFree(matrix);
}
