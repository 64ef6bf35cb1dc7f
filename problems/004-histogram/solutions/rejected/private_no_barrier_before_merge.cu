// expect: WA race
// Privatized histogram without the __syncthreads() between counting and merging: a thread adds
// its shared bins to the global histogram while other threads of the block are still counting
// into them, so their later counts never reach the result.
#include <cuda_runtime.h>

constexpr int kThreads = 512;

__global__ void histogram_private(const int* input, int* histogram, int N, int num_bins) {
    extern __shared__ int bins[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) bins[b] = 0;
    __syncthreads();

    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) {
        const int key = input[i];
        if (key >= 0 && key < num_bins) atomicAdd(&bins[key], 1);
    }
    // BUG: missing __syncthreads(): the merge below may run before the block finished counting.
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (bins[b] != 0) atomicAdd(&histogram[b], bins[b]);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_private<<<blocks, kThreads, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
}
