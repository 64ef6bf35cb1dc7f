// expect: builds
#include <cuda_runtime.h>

__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
__host__ __device__ inline float relu(float x) { return x > 0.0f ? x : 0.0f; }

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = relu(input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<ceil_div(N, 256), 256>>>(input, output, N);
}
