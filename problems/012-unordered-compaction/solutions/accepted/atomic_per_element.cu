// Unordered compaction, the direct way: every kept element reserves its own slot with one
// atomicAdd on count[0] (which the judge zero-fills) and writes itself there. The order of the
// slots is whatever order the atomics happen in, which this problem allows.
#include <cuda_runtime.h>

__global__ void compact_atomic(const float* __restrict__ input, float* __restrict__ output,
                               int* count, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = input[i];
        if (v > 0.0f) output[atomicAdd(count, 1)] = v;
    }
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    const int threads = 256;
    compact_atomic<<<(n + threads - 1) / threads, threads>>>(input, output, count, n);
}
