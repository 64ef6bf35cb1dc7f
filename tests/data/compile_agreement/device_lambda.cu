// expect: builds
#include <cuda_runtime.h>

template <class F>
__device__ void for_each_index(int i, int n, F f) { if (i < n) f(i); }

__global__ void relu_kernel(const float* input, float* output, int N) {
    auto relu = [](float x) { return x > 0.0f ? x : 0.0f; };
    for_each_index(blockIdx.x * blockDim.x + threadIdx.x, N, [&](int i) { output[i] = relu(input[i]); });
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
