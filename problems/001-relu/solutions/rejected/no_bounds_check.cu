// expect: RE
// Mistake: the grid is rounded up to whole blocks but the kernel never checks i < N, so the last block writes past the end of output.
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fmaxf(in[i], 0.0f);   // no "if (i < n)": threads past the end still write
}

extern "C" void solve(const float* input, float* output, int N) {
    const int block = 256;
    int grid = (N + block - 1) / block;
    relu<<<grid, block>>>(input, output, N);
}
