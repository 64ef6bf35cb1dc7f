#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) output[i] = fmaxf(input[i], 0.0f);
}

void solve(const float* input, float* output, long N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
