// expect: builds
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
static_assert(ceil_div(10, 4) == 3, "ceil_div");

__global__ void __launch_bounds__(kThreads, 2) relu_kernel(const float* __restrict__ input, float* __restrict__ output, int N) {
    int i = blockIdx.x * kThreads + threadIdx.x;
    if (i < N) output[i] = fmaxf(__ldg(&input[i]), 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<ceil_div(N, kThreads), kThreads>>>(input, output, N);
}
