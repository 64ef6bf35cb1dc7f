// expect: WA
// Mistake: the roles are swapped: output[indices[i]] = values[i] is a SCATTER. A gather reads through the index (output[i] = values[indices[i]]) and writes consecutively.
#include <cuda_runtime.h>

__global__ void gather(const float* values, const int* indices, float* output, int M) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) output[indices[i]] = values[i];      // BUG: should be output[i] = values[indices[i]]
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    gather<<<(M + threads - 1) / threads, threads>>>(values, indices, output, M);
}
