#include <cuda_runtime.h>
#include <cmath>

// Write the k largest of the N values of input into output[0..k), LARGEST FIRST.
// input and output are device pointers; output is NOT zeroed for you (it holds NaNs).
// 1 <= k <= min(N, 1024).
//
// This starter only finds output[0], and only with a single thread: slow for large N, and
// output[1..k) is never written. Ideas:
//   * sort a copy of the input (cudaMalloc scratch), then copy the k largest, largest first;
//   * or: each block keeps the top-k of its own tile (sort the tile in shared memory), then
//     repeat on the blocks' candidates until one block is left (a block's top-k alone is NOT
//     the answer when N needs several blocks).

__global__ void max_only(const float* input, float* output, int N) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float best = -INFINITY;
        for (int i = 0; i < N; ++i) best = fmaxf(best, input[i]);
        output[0] = best;   // TODO: output[1], ..., output[k-1]
    }
}

extern "C" void solve(const float* input, float* output, int N, int k) {
    max_only<<<1, 32>>>(input, output, N);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
