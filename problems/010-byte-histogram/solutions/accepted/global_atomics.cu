// Naive byte histogram: one thread per byte, one atomicAdd on the global histogram per byte.
// Correct, but every byte is an atomic in L2, and when many bytes share a value (a hot value,
// or all equal) those atomics queue up on one address.
#include <cuda_runtime.h>

__global__ void histogram_global(const unsigned char* __restrict__ input,
                                 unsigned int* __restrict__ histogram, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&histogram[input[i]], 1u);   // an unsigned char is always 0..255
}

extern "C" void solve(const unsigned char* input, unsigned int* histogram, int N) {
    // histogram arrives zero-filled, so we only add.
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    histogram_global<<<blocks, threads>>>(input, histogram, N);
}
