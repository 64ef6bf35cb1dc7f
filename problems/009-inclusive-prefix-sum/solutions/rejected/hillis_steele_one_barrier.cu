// expect: WA race
// Mistake: the Hillis-Steele tile scan updates shared memory in place with only ONE barrier per step; between reading s[t - d] and writing s[t] there must be another, or a thread may read a neighbour's value that this same step already changed.
#include <cuda_runtime.h>

constexpr int kTile = 1024;

__global__ void scan_tiles(const float* in, float* out, float* totals, int n) {
    __shared__ float s[kTile];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kTile + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < kTile; d <<= 1) {
        if (t >= d) s[t] += s[t - d];                     // BUG: read and write in one phase
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
    if (totals != nullptr && t == kTile - 1) totals[blockIdx.x] = s[t];
}

__global__ void add_offsets(float* out, const float* incl_totals, int n) {
    const int i = (blockIdx.x + 1) * kTile + threadIdx.x;   // tile 0 needs nothing
    if (i < n) out[i] += incl_totals[blockIdx.x];
}

static void scan(const float* in, float* out, int n, float* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(in, out, nullptr, n);
        return;
    }
    scan_tiles<<<tiles, kTile>>>(in, out, scratch, n);
    scan(scratch, scratch, tiles, scratch + tiles);          // inclusive scan of the totals
    add_offsets<<<tiles - 1, kTile>>>(out, scratch, n);
}

extern "C" void solve(const float* input, float* output, int N) {
    size_t floats = 0;
    for (long long m = N; m > kTile;) {
        m = (m + kTile - 1) / kTile;
        floats += (size_t)m;
    }
    float* scratch = nullptr;
    if (floats > 0) cudaMalloc(&scratch, floats * sizeof(float));
    scan(input, output, N, scratch);
    if (scratch != nullptr) cudaFree(scratch);
}
