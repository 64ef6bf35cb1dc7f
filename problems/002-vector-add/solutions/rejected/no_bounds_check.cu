// expect: RE
// Mistake: the grid is rounded up to whole 256-thread blocks but the kernel has no i < N check, so the extra threads write past the end of C.
#include <cuda_runtime.h>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    int grid = (N + 255) / 256;
    vadd<<<grid, 256>>>(A, B, C, N);
}
