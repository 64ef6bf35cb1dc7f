#include <cuda_runtime.h>

// Scatter-add: for every i in [0, N), add values[i] to output[indices[i]].
// output has M elements and is zero-filled by the judge; every index is in [0, M).
// Several values usually go to the same output: their additions must all count.
//
// This starter launches one thread per value but adds nothing yet. TODO:
//   - add values[i] to output[indices[i]] so that concurrent additions to one output are not
//     lost (a plain `output[k] += v` from two threads can lose one of them): use atomicAdd;
//   - for speed with few outputs, add into a per-block copy in shared memory first.

__global__ void scatter_add_kernel(const float* values, const int* indices, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        // TODO: output[indices[i]] += values[i], atomically
    }
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    scatter_add_kernel<<<blocks, threads>>>(values, indices, output, N);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
