// expect: WA
// Mistake: the index is threadIdx.x alone, so every block recomputes elements 0..255 and everything past the first block is never written.
#include <cuda_runtime.h>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = threadIdx.x;          // should be blockIdx.x * blockDim.x + threadIdx.x
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    int grid = (N + 255) / 256;
    vadd<<<grid, 256>>>(A, B, C, N);
}
