// expect: WA
// The textbook bitonic sort with ascending/descending comparators, written for N a power of two: the stage loop `k <= N` never reaches the final merge when N is not a power of two, and partners past N are simply skipped although the network would need them.
#include <cuda_runtime.h>

__global__ void bitonic_step(float* a, int n, int j, int k) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int l = i ^ j;
    if (l > i && l < n) {                       // in bounds, but the network assumes l < n always
        const bool ascending = (i & k) == 0;
        const float x = a[i], y = a[l];
        if ((x > y) == ascending) { a[i] = y; a[l] = x; }
    }
}

extern "C" void solve(float* data, int N) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    for (int k = 2; k <= N; k <<= 1)            // BUG: for N = 1000 the last stage is k = 512
        for (int j = k / 2; j > 0; j >>= 1)
            bitonic_step<<<blocks, threads>>>(data, N, j, k);
}
