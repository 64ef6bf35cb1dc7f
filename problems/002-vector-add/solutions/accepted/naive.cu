#include <cuda_runtime.h>

// One thread per element with a bounds check.
__global__ void vadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    const int block = 256;
    int grid = (N + block - 1) / block;
    vadd<<<grid, block>>>(A, B, C, N);
}
