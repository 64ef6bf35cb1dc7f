// expect: WA
// Mistake: boundary mode 2 (wrap) is handled like mode 1 (clamp): the end cells use their own value instead of the element at the other end of the array.
#include <cuda_runtime.h>

__device__ float fetch(const float* x, int j, int N, int boundary) {
    if (j >= 0 && j < N) return x[j];
    if (boundary == 0) return 0.0f;
    return x[j < 0 ? 0 : N - 1];          // BUG: for boundary == 2 this should be x[j < 0 ? N - 1 : 0]
}

__global__ void stencil(const float* x, float* y, int N, int boundary) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) y[i] = 0.25f * fetch(x, i - 1, N, boundary) + 0.5f * x[i] + 0.25f * fetch(x, i + 1, N, boundary);
}

extern "C" void solve(const float* input, float* output, int N, int boundary) {
    const int threads = 256;
    stencil<<<(N + threads - 1) / threads, threads>>>(input, output, N, boundary);
}
