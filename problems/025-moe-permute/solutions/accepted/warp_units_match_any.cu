// Stable MoE permutation: histogram per unit, one exclusive scan, stable scatter.
//
// The tokens are cut into units of 1024 consecutive tokens, one unit per warp.
//   1. count: every warp counts its unit's tokens per expert (shared-memory counters of its own)
//      and stores them expert-major: unit_counts[e * num_units + u].
//   2. scan:  one exclusive scan of that matrix gives, for every (expert, unit), where the unit's
//      tokens of that expert start in the output - after all tokens of lower experts, and after
//      the same expert's tokens of earlier units. That is what makes the result stable.
//   3. scatter: every warp walks its unit again, 32 tokens at a time in order. __match_any_sync
//      groups the lanes that hold the same expert; a lane's rank in its group is the number of
//      such lanes below it. The group's highest lane then advances the expert's cursor.
#include <cuda_runtime.h>

constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;
constexpr int kUnit = 1024;                 // tokens per warp
constexpr int kScanTile = 1024;             // elements per block of the scan
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kThreads)
count_units(const int* __restrict__ ids, int* unit_counts, int n, int num_experts, int num_units) {
    extern __shared__ int counters[];                       // [kWarpsPerBlock][num_experts]
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int unit = blockIdx.x * kWarpsPerBlock + warp;
    int* mine = counters + warp * num_experts;
    for (int e = lane; e < num_experts; e += 32) mine[e] = 0;
    __syncwarp();
    if (unit < num_units) {
        const long long start = (long long)unit * kUnit;
        for (int j = lane; j < kUnit; j += 32) {
            const long long i = start + j;
            if (i < n) atomicAdd(&mine[ids[i]], 1);
        }
    }
    __syncwarp();
    if (unit < num_units)
        for (int e = lane; e < num_experts; e += 32) unit_counts[(size_t)e * num_units + unit] = mine[e];
}

__global__ void __launch_bounds__(kThreads)
scatter_units(const int* __restrict__ ids, const int* unit_offsets, int* permuted, int n,
              int num_experts, int num_units) {
    extern __shared__ int cursor[];                         // [kWarpsPerBlock][num_experts]
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int unit = blockIdx.x * kWarpsPerBlock + warp;
    if (unit >= num_units) return;                          // the whole warp leaves together
    int* mine = cursor + warp * num_experts;
    for (int e = lane; e < num_experts; e += 32) mine[e] = unit_offsets[(size_t)e * num_units + unit];
    __syncwarp();
    const unsigned below = (1u << lane) - 1u;
    const long long start = (long long)unit * kUnit;
    for (int c = 0; c < kUnit; c += 32) {
        const long long i = start + c + lane;
        const int e = i < n ? ids[i] : -1;                  // -1: past the end, writes nothing
        const unsigned peers = __match_any_sync(kFull, e);
        const int rank = __popc(peers & below);
        if (e >= 0) permuted[mine[e] + rank] = (int)i;
        __syncwarp();                                       // all reads of mine[e] before the update
        if (e >= 0 && lane == 31 - __clz(peers)) mine[e] += __popc(peers);
        __syncwarp();
    }
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
    const int num_units = (num_tokens + kUnit - 1) / kUnit;
    const long long cells = (long long)num_experts * num_units;
    size_t scratch_ints = 0;
    for (long long m = cells; m > kScanTile;) {
        m = (m + kScanTile - 1) / kScanTile;
        scratch_ints += (size_t)m;
    }
    int* matrix = nullptr;                                  // counts, scanned in place
    if (cudaMalloc(&matrix, (cells + scratch_ints + 1) * sizeof(int)) != cudaSuccess) return;
    const int blocks = (num_units + kWarpsPerBlock - 1) / kWarpsPerBlock;
    const size_t smem = (size_t)kWarpsPerBlock * num_experts * sizeof(int);   // <= 16 KiB
    count_units<<<blocks, kThreads, smem>>>(expert_ids, matrix, num_tokens, num_experts, num_units);
    exclusive_scan(matrix, matrix, cells, matrix + cells);
    scatter_units<<<blocks, kThreads, smem>>>(expert_ids, matrix, permuted, num_tokens, num_experts,
                                              num_units);
    cudaFree(matrix);
}
