// expect: WA
// Mistake: reads the vectors as float4 and handles only the first 4*(N/4) elements; when N is not a multiple of 4 the last 1-3 products are never added (and N < 4 gives 0).
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void dot_float4(const float4* A, const float4* B, float* result, int quads) {
    float acc = 0.0f;
    for (int q = blockIdx.x * kThreads + threadIdx.x; q < quads; q += gridDim.x * kThreads) {
        const float4 a = A[q], b = B[q];
        acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
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
    cudaMemsetAsync(result, 0, sizeof(float));
    const int quads = N / 4;                       // BUG: the N % 4 leftover elements are lost
    int blocks = (quads + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > 1024) blocks = 1024;
    dot_float4<<<blocks, kThreads>>>(reinterpret_cast<const float4*>(A),
                                     reinterpret_cast<const float4*>(B), result, quads);
}
