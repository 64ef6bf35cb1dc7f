// expect: WA race
// Mistake: no __syncthreads() between counting into the shared bins and merging them; thread b adds bin b to the global histogram while other threads of the block may still be counting into it, and those later counts are lost.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void histogram_private(const unsigned char* input, unsigned int* histogram, int n) {
    __shared__ unsigned int bins[256];
    bins[threadIdx.x] = 0;
    __syncthreads();

    const int stride = gridDim.x * kThreads;
    for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += stride)
        atomicAdd(&bins[input[i]], 1u);
    // BUG: missing __syncthreads(): the merge may read a bin before the block finished counting.
    const unsigned c = bins[threadIdx.x];
    if (c != 0) atomicAdd(&histogram[threadIdx.x], c);
}

extern "C" void solve(const unsigned char* input, unsigned int* histogram, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_private<<<blocks, kThreads>>>(input, histogram, N);
}
