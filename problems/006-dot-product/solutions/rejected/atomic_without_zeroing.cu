// expect: WA
// Mistake: the blocks atomicAdd their partial sums into result without zeroing it first; result starts as the judge's NaN sentinel, and NaN plus anything stays NaN.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void dot_atomic(const float* A, const float* B, float* result, int n) {
    float acc = 0.0f;
    for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += gridDim.x * kThreads)
        acc += A[i] * B[i];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    __shared__ float warp_sums[kThreads / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < kThreads / 32 ? warp_sums[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
        if (lane == 0) atomicAdd(result, acc);
    }
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    // missing: cudaMemsetAsync(result, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    dot_atomic<<<blocks, kThreads>>>(A, B, result, N);
}
