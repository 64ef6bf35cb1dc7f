// expect: WA race
// Mistake: thread 0 clears the block's shared bins but there is no __syncthreads() before the counting starts, so other threads may count into bins that thread 0 clears afterwards, wiping their counts.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void histogram_private(const unsigned char* input, unsigned int* histogram, int n) {
    __shared__ unsigned int bins[256];
    if (threadIdx.x == 0)
        for (int b = 0; b < 256; ++b) bins[b] = 0;          // thread 0 clears all bins ...
    // BUG: missing __syncthreads(): nobody waits for the clearing to finish.

    const int stride = gridDim.x * kThreads;
    for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += stride)
        atomicAdd(&bins[input[i]], 1u);
    __syncthreads();
    const unsigned c = bins[threadIdx.x];
    if (c != 0) atomicAdd(&histogram[threadIdx.x], c);
}

extern "C" void solve(const unsigned char* input, unsigned int* histogram, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_private<<<blocks, kThreads>>>(input, histogram, N);
}
