// expect: builds
#include <cuda_runtime.h>

__device__ float clamp_index(const float* v, int warpSize_, int n) { return v[warpSize_ < n ? warpSize_ : n - 1]; }

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {
        int blockDim = 3;   // a block-scope name may shadow a built-in variable
        (void)blockDim;
    }
    if (i < N) output[i] = fmaxf(input[i], 0.0f) + 0.0f * clamp_index(input, 0, N);
}

extern "C" void solve(const float* input, float* output, int N) {
    dim3 gridDim((N + 255) / 256), blockDim(256);
    relu_kernel<<<gridDim, blockDim>>>(input, output, N);
}
