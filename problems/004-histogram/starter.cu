#include <cuda_runtime.h>

// Histogram: histogram[b] = how many i have input[i] == b, for 0 <= b < num_bins.
// Keys < 0 or >= num_bins must be ignored. histogram is zero-filled by the judge before the call.
//
// This starter launches one thread per key but does not count anything yet.
// Things to get right:
//   - skip keys outside [0, num_bins): writing histogram[-1] or histogram[num_bins] is a bug;
//   - many threads hit the same bin at once, so a plain histogram[key]++ loses updates:
//     use atomicAdd;
//   - for speed, count into a per-block copy of the bins in shared memory
//     (extern __shared__ int bins[]; launch with num_bins * sizeof(int) bytes of dynamic shared
//     memory), then add the block's bins to the global histogram once.

__global__ void histogram_kernel(const int* input, int* histogram, int N, int num_bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        // TODO: read key = input[i]; if 0 <= key < num_bins, add 1 to histogram[key] (atomically).
    }
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    histogram_kernel<<<blocks, threads>>>(input, histogram, N, num_bins);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
