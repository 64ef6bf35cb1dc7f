// expect: RE
// No `if (i < n)`: the grid is rounded up to whole blocks of 256, and the extra threads of the last block write past the end of y.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];                 // BUG: missing bounds check
}

extern "C" void solve(int n, float a, const float* x, float* y) {
    const int threads = 256;
    saxpy<<<(n + threads - 1) / threads, threads>>>(n, a, x, y);
}
