#include <cuda_runtime.h>

// One thread per element: the simplest correct map.
__global__ void relu(const float* __restrict__ in, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    const int block = 256;
    int grid = (N + block - 1) / block;
    relu<<<grid, block>>>(input, output, N);
}
