#include <cuda_runtime.h>

// output[0] = input[0] + input[1] + ... + input[N-1].
// input and output are device pointers. output is NOT zeroed for you: it starts as garbage (NaN).
__global__ void sum_kernel(const float* input, float* output, int N) {
    // TODO: this only copies the first element. Every thread must contribute its elements:
    // e.g. reduce a block's values in shared memory (or with warp shuffles), then combine
    // the per-block results (a second launch, or atomicAdd into a zeroed output).
    if (blockIdx.x == 0 && threadIdx.x == 0) output[0] = input[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    sum_kernel<<<blocks, threads>>>(input, output, N);
}
