// expect: WA
// Mistake: every block atomically adds its sum into output, but output is never zeroed first; it starts as the judge's NaN sentinel, so the result is NaN.
#include <cuda_runtime.h>

constexpr int BLOCK = 256;

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_atomic(const float* in, float* out, int n) {
    float acc = 0.0f;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    acc = warp_sum(acc);
    __shared__ float warp_totals[BLOCK / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_totals[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = warp_sum(lane < BLOCK / 32 ? warp_totals[lane] : 0.0f);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    // missing: cudaMemsetAsync(output, 0, sizeof(float));
    int grid = (N + BLOCK - 1) / BLOCK;
    if (grid > 1024) grid = 1024;
    reduce_atomic<<<grid, BLOCK>>>(input, output, N);
}
