// Stable compaction in the textbook three steps:
//   1. flags[i] = (A[i] > 0) ? 1 : 0;
//   2. exclusive scan of the flags (a device-wide scan: every 1024-element tile is scanned by
//      one block, the tile totals are scanned recursively, then each tile adds its offset);
//   3. scatter: if A[i] > 0, out[flags_scanned[i]] = A[i].
// The scanned flag of a kept element is the number of kept elements before it, so the kept
// elements land at 0, 1, 2, ... in their original order.
#include <cuda_runtime.h>

constexpr int kTile = 1024;                 // one element per thread, 1024 threads per block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void make_flags(const float* A, int* flags, int n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = A[i] > 0.0f ? 1 : 0;
}

// Exclusive scan of every tile (in may equal out: each thread reads its element before it
// writes it); the tile total goes to tile_sums[blockIdx.x] unless tile_sums is null.
__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;
    const int x = i < n ? in[i] : 0;
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
    if (i < n) out[i] = warp_base[warp] + inclusive - x;
}

__global__ void add_tile_offsets(int* data, const int* tile_offsets, int n) {
    const long long i = (long long)(blockIdx.x + 1) * kTile + threadIdx.x;   // tile 0 adds 0
    if (i < n) data[i] += tile_offsets[blockIdx.x + 1];
}

static void exclusive_scan(int* data, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(data, data, nullptr, n);
        return;
    }
    scan_tiles<<<tiles, kTile>>>(data, data, scratch, n);
    exclusive_scan(scratch, tiles, scratch + tiles);
    add_tile_offsets<<<tiles - 1, kTile>>>(data, scratch, n);
}

__global__ void scatter_kept(const float* A, const int* position, float* out, int n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = A[i];
        if (v > 0.0f) out[position[i]] = v;
    }
}

extern "C" void solve(const float* A, int N, float* out) {
    if (N <= 0) return;
    size_t scratch_ints = (size_t)N;                 // the flags / positions
    for (long long m = N; m > kTile;) {              // tile totals of every level
        m = (m + kTile - 1) / kTile;
        scratch_ints += (size_t)m;
    }
    int* scratch = nullptr;
    if (cudaMalloc(&scratch, scratch_ints * sizeof(int)) != cudaSuccess) return;
    int* position = scratch;
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    make_flags<<<blocks, threads>>>(A, position, N);
    exclusive_scan(position, N, scratch + N);
    scatter_kept<<<blocks, threads>>>(A, position, out, N);
    cudaFree(scratch);
}
