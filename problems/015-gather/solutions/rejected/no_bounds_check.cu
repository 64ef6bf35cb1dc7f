// expect: RE
// Mistake: no "if (i < M)": the last block's extra threads read indices past its end, fetch values from wherever those garbage indices point, and write past the end of output.
#include <cuda_runtime.h>

__global__ void gather(const float* values, const int* indices, float* output, int M) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    output[i] = values[indices[i]];                 // BUG: runs for i >= M too
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    gather<<<(M + threads - 1) / threads, threads>>>(values, indices, output, M);
}
