// expect: WA
// Mistake: scatters with the INCLUSIVE scan of the flags. The first kept element lands in slot 1 instead of 0, every other one a slot too late (and when every element is kept, the last one is written past the end of out).
#include <cuda_runtime.h>

constexpr int kTile = 1024;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void make_flags(const float* A, int* flags, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = A[i] > 0.0f ? 1 : 0;
}

// Inclusive scan of every tile in place; tile totals to tile_sums.
__global__ void scan_tiles(int* data, int* tile_sums, int n) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int i = blockIdx.x * kTile + threadIdx.x;
    const int x = i < n ? data[i] : 0;
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
    if (i < n) data[i] = warp_base[warp] + inclusive;
}

__global__ void add_tile_offsets(int* data, const int* inclusive_tile_sums, int n) {
    const int i = (blockIdx.x + 1) * kTile + threadIdx.x;
    if (i < n) data[i] += inclusive_tile_sums[blockIdx.x];
}

static void inclusive_scan(int* data, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(data, nullptr, n);
        return;
    }
    scan_tiles<<<tiles, kTile>>>(data, scratch, n);
    inclusive_scan(scratch, tiles, scratch + tiles);
    add_tile_offsets<<<tiles - 1, kTile>>>(data, scratch, n);
}

__global__ void scatter_kept(const float* A, const int* position, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && A[i] > 0.0f) out[position[i]] = A[i];   // BUG: should be position[i] - 1
}

extern "C" void solve(const float* A, int N, float* out) {
    size_t scratch_ints = (size_t)N;
    for (long long m = N; m > kTile;) {
        m = (m + kTile - 1) / kTile;
        scratch_ints += (size_t)m;
    }
    int* scratch = nullptr;
    cudaMalloc(&scratch, scratch_ints * sizeof(int));
    const int threads = 256, blocks = (N + threads - 1) / threads;
    make_flags<<<blocks, threads>>>(A, scratch, N);
    inclusive_scan(scratch, N, scratch + N);
    scatter_kept<<<blocks, threads>>>(A, scratch, out, N);
    cudaFree(scratch);
}
