// Style: "template header" -- #include "solve.h", solve() with C++ linkage, non-const input pointer.
#include "solve.h"
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__device__ float warpSum(float v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// grid-stride loop with 4 accumulators, warp shuffle, then one atomicAdd per block
__global__ void reduceKernel(float* input, float* output, int N) {
    __shared__ float warpTotals[WARPS];
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * THREADS + tid;
    long long stride = (long long)gridDim.x * THREADS;

    float a = 0.f, b = 0.f, c = 0.f, d = 0.f;
    for (; i + 3 * stride < N; i += 4 * stride) {
        a += input[i];
        b += input[i + stride];
        c += input[i + 2 * stride];
        d += input[i + 3 * stride];
    }
    for (; i < N; i += stride) a += input[i];
    float sum = (a + b) + (c + d);

    sum = warpSum(sum);
    int lane = tid % 32, warp = tid / 32;
    if (lane == 0) warpTotals[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        float v = lane < WARPS ? warpTotals[lane] : 0.0f;
        v = warpSum(v);
        if (lane == 0) atomicAdd(output, v);
    }
}

void solve(float* input, float* output, int N) {
    // output holds garbage, zero it before the blocks add into it
    cudaMemset(output, 0, sizeof(float));
    int blocks = (N + THREADS - 1) / THREADS;
    if (blocks > 1024) blocks = 1024;
    reduceKernel<<<blocks, THREADS>>>(input, output, N);
    cudaDeviceSynchronize();
}
