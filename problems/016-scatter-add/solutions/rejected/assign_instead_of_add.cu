// expect: WA
// Mistake: stores instead of adding (output[k] = v, not output[k] += v): when several values go to the same output, only one of them survives.
#include <cuda_runtime.h>

__global__ void scatter_add(const float* values, const int* indices, float* output, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[indices[i]] = values[i];      // BUG: must be atomicAdd(&output[indices[i]], values[i])
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    scatter_add<<<(N + threads - 1) / threads, threads>>>(values, indices, output, N);
}
