// Host locals and parameters named like the built-in variables, as many tutorials write them.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

static void launch(dim3 gridDim, dim3 blockDim, const float* input, float* output, int N) {
    relu_kernel<<<gridDim, blockDim>>>(input, output, N);
}

extern "C" void solve(const float* input, float* output, int N) {
    dim3 blockDim(256);
    dim3 gridDim((N + blockDim.x - 1) / blockDim.x);
    launch(gridDim, blockDim, input, output, N);
}
