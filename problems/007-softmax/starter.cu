#include <cuda_runtime.h>

// output[i] = exp(input[i] - m) / sum_j exp(input[j] - m), where m = max_j input[j].
// input and output are device pointers; output is NOT zeroed (it holds NaNs).
//
// This starter only writes exp(input[i]) -- no normalization, and it overflows for inputs
// above ~88.7. A complete solution needs three things over the WHOLE vector, not per block:
//   1. the maximum m (a reduction; combine the blocks with a second launch or an atomic);
//   2. the sum s = sum_j expf(input[j] - m) (another reduction; s >= 1 because the largest
//      term is exp(0) = 1);
//   3. output[i] = expf(input[i] - m) / s.
// Scratch space for m and s: cudaMalloc it in solve (and cudaFree it at the end).

__global__ void softmax_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        // TODO: subtract the global maximum and divide by the global sum of exponentials.
        output[i] = expf(input[i]);
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    softmax_kernel<<<blocks, threads>>>(input, output, N);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
