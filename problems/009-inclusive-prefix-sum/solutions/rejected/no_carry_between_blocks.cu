// expect: WA
// Mistake: every block scans its own 1024-element tile correctly but nothing adds the sums of the tiles before it, so the answer is right only while N <= 1024.
#include <cuda_runtime.h>

constexpr int kTile = 1024;

__device__ float warp_inclusive(float v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void scan_tile(const float* in, float* out, int n) {
    __shared__ float warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int i = blockIdx.x * kTile + threadIdx.x;
    float v = warp_inclusive(i < n ? in[i] : 0.0f, lane);
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const float w = warp_base[lane];
        warp_base[lane] = warp_inclusive(w, lane) - w;
    }
    __syncthreads();
    if (i < n) out[i] = v + warp_base[warp];             // missing: + total of earlier tiles
}

extern "C" void solve(const float* input, float* output, int N) {
    scan_tile<<<(N + kTile - 1) / kTile, kTile>>>(input, output, N);
}
