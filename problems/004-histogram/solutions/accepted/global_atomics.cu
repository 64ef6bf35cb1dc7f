// Naive histogram: one thread per key, one atomicAdd on the global histogram per key.
// Correct, but every key is an atomic in L2; when many keys share a bin (hotspot, all-equal)
// those atomics queue up on the same address.
#include <cuda_runtime.h>

__global__ void histogram_global(const int* __restrict__ input, int* __restrict__ histogram,
                                 int N, int num_bins) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const int key = input[i];
        if (key >= 0 && key < num_bins) atomicAdd(&histogram[key], 1);
    }
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    // histogram arrives zero-filled, so we only add.
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    histogram_global<<<blocks, threads>>>(input, histogram, N, num_bins);
}
