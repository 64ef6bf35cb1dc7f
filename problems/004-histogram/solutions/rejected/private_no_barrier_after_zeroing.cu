// expect: WA race
// Privatized histogram without the __syncthreads() between zeroing the shared bins and counting:
// some threads start counting into bins that another thread has not cleared yet, and that
// thread's late clearing then wipes their counts.
#include <cuda_runtime.h>

constexpr int kThreads = 512;

__global__ void histogram_private(const int* input, int* histogram, int N, int num_bins) {
    extern __shared__ int bins[];
    if (threadIdx.x == 0)
        for (int b = 0; b < num_bins; ++b) bins[b] = 0;           // thread 0 clears the bins ...
    // BUG: missing __syncthreads(): the other threads do not wait for the clearing to finish.

    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) {
        const int key = input[i];
        if (key >= 0 && key < num_bins) atomicAdd(&bins[key], 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (bins[b] != 0) atomicAdd(&histogram[b], bins[b]);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_private<<<blocks, kThreads, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
}
