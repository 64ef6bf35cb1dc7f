#include <cuda_runtime.h>

int blocks_for(int n);

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<blocks_for(N), 256>>>(input, output, N);
}
