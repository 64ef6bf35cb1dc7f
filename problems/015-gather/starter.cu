#include <cuda_runtime.h>

// Gather: output[i] = values[indices[i]] for every i in [0, M).
// values has N entries (the table), indices and output have M entries; every index is in [0, N).
// output is not zeroed: write every element.
//
// This starter copies the index itself instead of looking it up. TODO: read the table entry
// the index points to. Think about which accesses are coalesced: indices and output are read
// and written in order; the reads of values follow the index pattern.

__global__ void gather_kernel(const float* values, const int* indices, float* output, int M) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) {
        output[i] = (float)indices[i];   // TODO: look the index up in values
    }
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    const int blocks = (M + threads - 1) / threads;
    gather_kernel<<<blocks, threads>>>(values, indices, output, M);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
