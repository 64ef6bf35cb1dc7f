// expect: CE
#include <cuda_runtime.h>
#include <algorithm>

__host__ __device__ float clamp0(float x) { return std::max(x, 0.0f); }

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = clamp0(input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
