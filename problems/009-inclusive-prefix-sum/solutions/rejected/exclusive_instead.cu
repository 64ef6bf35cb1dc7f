// expect: WA
// Mistake: writes the EXCLUSIVE scan (output[i] = input[0] + ... + input[i-1], output[0] = 0); this problem asks for the inclusive one, which also adds input[i].
#include <cuda_runtime.h>

constexpr int kTile = 1024;

__device__ float warp_inclusive(float v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// Block-wide inclusive scan (1024 threads); *total gets the block's sum.
__device__ float block_inclusive(float v, float* total) {
    __shared__ float warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_inclusive(v, lane);
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const float w = warp_base[lane];
        const float s = warp_inclusive(w, lane);
        warp_base[lane] = s - w;
        if (lane == 31) *total = s;
    }
    __syncthreads();
    v += warp_base[warp];
    __syncthreads();
    return v;
}

__global__ void scan_tiles(const float* in, float* out, float* totals, int n) {
    __shared__ float total;
    const int i = blockIdx.x * kTile + threadIdx.x;
    const float x = i < n ? in[i] : 0.0f;
    const float incl = block_inclusive(x, &total);
    if (i < n) out[i] = incl - x;                        // BUG: exclusive; should be incl
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

__global__ void tile_offsets(float* totals, int count) {   // exclusive scan of the totals, in place
    __shared__ float chunk_total;
    float carry = 0.0f;
    for (int base = 0; base < count; base += kTile) {
        const int k = base + threadIdx.x;
        const float x = k < count ? totals[k] : 0.0f;
        const float incl = block_inclusive(x, &chunk_total);
        if (k < count) totals[k] = carry + (incl - x);
        carry += chunk_total;
        __syncthreads();
    }
}

__global__ void add_offsets(float* out, const float* offsets, int n) {
    const int i = blockIdx.x * kTile + threadIdx.x;
    if (i < n) out[i] += offsets[blockIdx.x];
}

extern "C" void solve(const float* input, float* output, int N) {
    const int tiles = (N + kTile - 1) / kTile;
    float* totals = nullptr;
    cudaMalloc(&totals, sizeof(float) * tiles);
    scan_tiles<<<tiles, kTile>>>(input, output, totals, N);
    tile_offsets<<<1, kTile>>>(totals, tiles);
    add_offsets<<<tiles, kTile>>>(output, totals, N);
    cudaFree(totals);
}
