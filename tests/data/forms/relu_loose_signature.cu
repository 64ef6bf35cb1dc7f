// solve() with a non-const input and an unsigned length: the same call as the problem's.
#include <cuda_runtime.h>

__global__ void relu_kernel(float* input, float* output, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) output[i] = fmaxf(input[i], 0.0f);
}

void solve(float* input, float* output, unsigned int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
