// expect: WA race
// Hillis-Steele block scan in shared memory with only ONE barrier per step: a thread may add
// a neighbour's value that was already updated in the same step (read/write race).
#include <cuda_runtime.h>

constexpr int kTile = 1024;

// Exclusive scan of one tile per block (1024 threads); tile totals go to tile_sums.
__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n) {
    __shared__ int s[kTile];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kTile + t;
    const int x = i < n ? in[i] : 0;
    s[t] = x;
    __syncthreads();
    for (int d = 1; d < kTile; d <<= 1) {
        // BUG: needs a __syncthreads() between reading s[t - d] and writing s[t].
        if (t >= d) s[t] += s[t - d];
        __syncthreads();
    }
    if (i < n) out[i] = s[t] - x;                      // inclusive -> exclusive
    if (tile_sums != nullptr && t == kTile - 1) tile_sums[blockIdx.x] = s[t];
}

__global__ void add_tile_offsets(int* out, const int* tile_offsets, int n) {
    const long long i = (long long)(blockIdx.x + 1) * kTile + threadIdx.x;
    if (i < n) out[i] += tile_offsets[blockIdx.x + 1];
}

static void scan_level(const int* in, int* out, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(in, out, nullptr, n);
        return;
    }
    int* sums = scratch;
    scan_tiles<<<tiles, kTile>>>(in, out, sums, n);
    scan_level(sums, sums, tiles, scratch + tiles);
    add_tile_offsets<<<tiles - 1, kTile>>>(out, sums, n);
}

extern "C" void solve(const int* input, int* output, int n) {
    size_t scratch_ints = 0;
    for (long long m = n; m > kTile;) {
        m = (m + kTile - 1) / kTile;
        scratch_ints += (size_t)m;
    }
    int* scratch = nullptr;
    if (scratch_ints > 0) cudaMalloc(&scratch, scratch_ints * sizeof(int));
    scan_level(input, output, n, scratch);
    if (scratch != nullptr) cudaFree(scratch);
}
